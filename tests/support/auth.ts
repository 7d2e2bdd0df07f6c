import { GET as authGet, POST as authPost } from '@/app/api/auth/[...all]/route';
import { newSessionToken, SESSION_COOKIE } from '@/lib/session-cookie';
import { setEnv } from './app';

const ORIGIN = 'http://127.0.0.1:3000';

/** A browser: a cookie jar sent with every request, filled from Set-Cookie. */
export function browser(guestToken: string | null = newSessionToken()) {
  const jar = new Map<string, string>(guestToken ? [[SESSION_COOKIE, guestToken]] : []);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const request = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    new Request(`${ORIGIN}${path}`, {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: { cookie: cookie(), origin: ORIGIN, 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/iu.test(line)) jar.delete(name.trim());
      else jar.set(name.trim(), value.join('='));
    }
    return response;
  };
  return { jar, request, auth: async (path: string, body?: unknown) => keep(await (body === undefined ? authGet : authPost)(request(`/api/auth/${path}`, { body }))) };
}

export const email = () => `user-${crypto.randomUUID().slice(0, 8)}@example.test`;


/** A signed-up member's browser; with `staff`, the email is listed in STAFF_EMAILS first. */
export async function member(options: { staff?: boolean } = {}) {
  const address = email();
  if (options.staff) setEnv({ STAFF_EMAILS: [process.env.STAFF_EMAILS, address].filter(Boolean).join(',') });
  const b = browser();
  const response = await b.auth('sign-up/email', { email: address, password: 'a fine password 1', name: address.split('@')[0] });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return { ...b, email: address };
}
