import { vi } from 'vitest';
import { GET as authGet, POST as authPost } from '@/app/api/auth/[...all]/route';
import { LOGGED_MAIL_PREFIX } from '@/lib/mail';
import { startGuest } from '@/lib/session';
import { inviteStaff } from '@/lib/staff-invite';

const ORIGIN = 'http://127.0.0.1:3000';

/**
 * A browser: a cookie jar sent with every request, filled from Set-Cookie (`keep` it from any
 * response). A new one has no session; `asGuest` starts one as a first write would.
 */
export function browser() {
  const jar = new Map<string, string>();
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
  const auth = async (path: string, body?: unknown, headers?: Record<string, string>) =>
    keep(await (body === undefined ? authGet : authPost)(request(`/api/auth/${path}`, { body, headers })));
  /** Opens a link the app mailed (it points into /api/auth), as a click in this browser would. */
  const follow = (link: string) => auth(new URL(link).href.replace(/^.*?\/api\/auth\//u, ''));
  /** Starts this browser's guest session, as its first write would. */
  const asGuest = async () => {
    const { user, setCookies } = await startGuest(new Headers({ cookie: cookie() }));
    for (const line of setCookies) {
      const [name, ...value] = line.split(';')[0].split('=');
      jar.set(name.trim(), value.join('='));
    }
    return user;
  };
  return { jar, request, auth, follow, keep, asGuest };
}

/**
 * Runs `action` and returns the links the app mailed meanwhile through its log transport (no
 * SMTP_URL), by reading the server log's mail lines; the lines are kept out of the test output.
 */
export async function mailedLinks<T>(action: () => Promise<T>): Promise<{ result: T; links: Array<{ to: string; link: string }> }> {
  const lines: string[] = [];
  const info = console.info;
  const spy = vi.spyOn(console, 'info').mockImplementation((...args: unknown[]) => {
    const line = args.map(String).join(' ');
    if (line.startsWith(LOGGED_MAIL_PREFIX)) lines.push(line);
    else info(...args);
  });
  try {
    const result = await action();
    return { result, links: lines.map((line) => /to (\S+): .*: (\S+)$/u.exec(line)!).map(([, to, link]) => ({ to, link })) };
  } finally {
    spy.mockRestore();
  }
}

export const email = () => `user-${crypto.randomUUID().slice(0, 8)}@example.test`;

/**
 * A signed-up member's browser, signed in by following the link sign-up mailed (an account has no
 * session before its address is proven); with `staff`, also invited and through the invite.
 */
export async function member(options: { staff?: boolean } = {}) {
  const address = email();
  const password = 'a fine password 1';
  const b = browser();
  await signUp(b, { email: address, password, name: address.split('@')[0] });
  if (options.staff) await acceptStaffInvite(b, address, password);
  return { ...b, email: address };
}

/** Signs up in `b` and follows the mailed verification link there, which signs `b` in; the sign-up's response. */
export async function signUp(b: ReturnType<typeof browser>, body: { email: string; password: string; name: string; image?: string }) {
  const { result: response, links } = await mailedLinks(() => b.auth('sign-up/email', body));
  const link = links.find((mail) => mail.to === body.email)?.link;
  if (response.status !== 200 || !link) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const verified = await b.follow(link);
  if (verified.status !== 302) throw new Error(`verification failed: ${verified.status} ${await verified.text()}`);
  return response;
}

/**
 * Invites `address` to be staff (as `npm run user:grant-staff` does) and uses the mailed link in
 * `b`: sets `password` through it (every earlier session ends), then signs in with it.
 */
async function acceptStaffInvite(b: ReturnType<typeof browser>, address: string, password: string) {
  const { links } = await mailedLinks(() => inviteStaff(address, 'grant'));
  const token = await resetTokenOf(b, links.findLast((mail) => mail.to === address)!.link);
  const reset = await b.auth('reset-password', { token, newPassword: password });
  if (reset.status !== 200) throw new Error(`setting the password failed: ${reset.status} ${await reset.text()}`);
  const signedIn = await b.auth('sign-in/email', { email: address, password });
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
}

/** Opens a mailed reset (or invite) link in `b`: the token the reset page is sent on with. */
export async function resetTokenOf(b: ReturnType<typeof browser>, link: string): Promise<string> {
  const opened = await b.follow(link);
  const token = new URL(opened.headers.get('location') ?? '/', ORIGIN).searchParams.get('token');
  if (opened.status !== 302 || !token)
    throw new Error(`the link did not lead to the reset page: ${opened.status} ${opened.headers.get('location')}`);
  return token;
}
