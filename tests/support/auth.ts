import { vi } from 'vitest';
import { GET as authGet, POST as authPost } from '@/app/api/auth/[...all]/route';
import { LOGGED_MAIL_PREFIX } from '@/lib/mail';
import { startGuest } from '@/lib/session';
import { setEnv } from './app';

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
 * A signed-up member's browser; with `staff`, the email is listed in STAFF_EMAILS first and
 * verified by following the link sign-up mailed (only a verified address is staff).
 */
export async function member(options: { staff?: boolean } = {}) {
  const address = email();
  if (options.staff) setEnv({ STAFF_EMAILS: [process.env.STAFF_EMAILS, address].filter(Boolean).join(',') });
  const b = browser();
  const { result: response, links } = await mailedLinks(() =>
    b.auth('sign-up/email', { email: address, password: 'a fine password 1', name: address.split('@')[0] }),
  );
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  if (options.staff) {
    const verified = await b.follow(links.find((mail) => mail.to === address)!.link);
    if (verified.status !== 302) throw new Error(`verification failed: ${verified.status} ${await verified.text()}`);
  }
  return { ...b, email: address };
}
