/** The session cookie: a random token, httpOnly; proxy.ts issues it on a first visit. No database here. */
export const SESSION_COOKIE = 'memlens_session';
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

export function newSessionToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Buffer.from(bytes).toString('base64url');
}

export function sessionTokenFrom(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const [name, ...rest] = pair.trim().split('=');
    if (name === SESSION_COOKIE) {
      const token = decodeURIComponent(rest.join('='));
      return TOKEN_SHAPE.test(token) ? token : undefined;
    }
  }
  return undefined;
}
