/** The session cookie: a random token, httpOnly; proxy.ts issues it on a first visit. No database here. */
export const SESSION_COOKIE = 'memlens_session';
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

export function newSessionToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Buffer.from(bytes).toString('base64url');
}

/**
 * The first well-formed session token in a Cookie header. A malformed value (bad percent-encoding,
 * wrong shape) counts as no cookie: proxy.ts then issues a new one, added after it to the same request.
 */
export function sessionTokenFrom(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const [name, ...rest] = pair.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    const token = decodeCookieValue(rest.join('='));
    if (token && TOKEN_SHAPE.test(token)) return token;
  }
  return undefined;
}

function decodeCookieValue(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
