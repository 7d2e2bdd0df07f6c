import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { type CsrfRequest, csrfVerdict } from '@/lib/csrf';
import { proxy } from '@/proxy';

// The app at 127.0.0.1:3000; the attacker's page on another port of the same host.
const APP = 'http://127.0.0.1:3000';
const OTHER_PORT = 'http://127.0.0.1:4000';
const COOKIE = `better-auth.session_token=${'a'.repeat(43)}`;

const jsonPost = (overrides: Partial<CsrfRequest> = {}): CsrfRequest => ({
  method: 'POST',
  pathname: '/api/import',
  host: '127.0.0.1:3000',
  origin: APP,
  secFetchSite: 'same-origin',
  contentType: 'application/json',
  hasBody: true,
  ...overrides,
});

describe('csrfVerdict', () => {
  it.each<[string, Partial<CsrfRequest>]>([
    ['the app itself', {}],
    ['the app, JSON with a charset', { contentType: 'application/json; charset=utf-8' }],
    ['a typed-in or bookmarked request (Sec-Fetch-Site: none)', { secFetchSite: 'none', origin: null }],
    ['an older browser: Origin of the app, no Sec-Fetch-Site', { secFetchSite: null }],
    ['a script or curl: neither Origin nor Sec-Fetch-Site', { secFetchSite: null, origin: null }],
    ['a DELETE with no body and no type', { method: 'DELETE', pathname: '/api/facts/x', contentType: null, hasBody: false }],
    [
      'a cross-site GET (reads are not guarded)',
      { method: 'GET', origin: 'https://evil.test', secFetchSite: 'cross-site', contentType: null, hasBody: false },
    ],
    [
      "better-auth's own routes (it checks Origin itself)",
      { pathname: '/api/auth/sign-in/email', origin: 'https://evil.test', secFetchSite: 'cross-site' },
    ],
    ['a page path, not the API', { pathname: '/login', origin: 'https://evil.test', secFetchSite: 'cross-site' }],
  ])('allows %s', (_, overrides) => {
    expect(csrfVerdict(jsonPost(overrides))).toEqual({ ok: true });
  });

  it.each<[string, Partial<CsrfRequest>]>([
    ['another port of the same host (Sec-Fetch-Site: same-site)', { origin: OTHER_PORT, secFetchSite: 'same-site' }],
    ['another site', { origin: 'https://evil.test', secFetchSite: 'cross-site' }],
    ['same-site even with a matching Origin', { secFetchSite: 'same-site' }],
    ['another port, Origin only (no Sec-Fetch-Site)', { origin: OTHER_PORT, secFetchSite: null }],
    ['another scheme of the same host, Origin only', { origin: 'ftp://127.0.0.1:3000', secFetchSite: null }],
    ['Origin: null (a sandboxed frame or data: page)', { origin: 'null', secFetchSite: null }],
    [
      'a text/plain form post to another route',
      { pathname: '/api/chat', origin: OTHER_PORT, secFetchSite: 'same-site', contentType: 'text/plain' },
    ],
    [
      'a DELETE from another port',
      { method: 'DELETE', pathname: '/api/memory', origin: OTHER_PORT, secFetchSite: 'same-site', contentType: null, hasBody: false },
    ],
  ])('refuses %s with 403 cross_origin', (_, overrides) => {
    expect(csrfVerdict(jsonPost(overrides))).toMatchObject({ ok: false, status: 403, code: 'cross_origin' });
  });

  it.each<[string, Partial<CsrfRequest>]>([
    ['text/plain (what an HTML form can send)', { contentType: 'text/plain;charset=UTF-8' }],
    ['a url-encoded form', { contentType: 'application/x-www-form-urlencoded' }],
    ['multipart', { contentType: 'multipart/form-data; boundary=x' }],
    ['a body with no Content-Type', { contentType: null }],
    ['a JSON look-alike type', { contentType: 'application/jsonp' }],
    ['text/plain even from a script', { contentType: 'text/plain', origin: null, secFetchSite: null }],
  ])('refuses %s with 415', (_, overrides) => {
    expect(csrfVerdict(jsonPost(overrides))).toMatchObject({ ok: false, status: 415, code: 'unsupported_media_type' });
  });

  it.each<[string, Partial<CsrfRequest>, boolean]>([
    ['a cross-site <img> of a staff read', { secFetchSite: 'cross-site', origin: null }, false],
    ['a staff read from another port', { secFetchSite: 'same-site', origin: null }, false],
    ["a staff read with neither header nor the console's", { secFetchSite: null, origin: null }, false],
    ['a staff read with a matching Origin but no header (Origin alone is no proof on a GET)', { secFetchSite: null }, false],
    ["the console's staff read", { secFetchSite: 'same-origin', staffHeader: '1' }, true],
    ['a staff read typed in', { secFetchSite: 'none', origin: null }, true],
    ['a staff read from a script or old browser with the header', { secFetchSite: null, origin: null, staffHeader: '1' }, true],
  ])('staff routes, reads included: %s', (_, overrides, ok) => {
    const read = jsonPost({ method: 'GET', pathname: '/api/staff/users/x', contentType: null, hasBody: false, ...overrides });
    expect(csrfVerdict(read).ok).toBe(ok);
    if (!ok) expect(csrfVerdict(read)).toMatchObject({ status: 403, code: 'cross_origin' });
  });

  it('accepts the public address APP_URL as the origin behind a proxy whose Host differs', () => {
    const behindProxy = jsonPost({ host: 'app:3000', origin: 'https://memlens.example', secFetchSite: null });
    expect(csrfVerdict(behindProxy).ok).toBe(false);
    expect(csrfVerdict(behindProxy, 'https://memlens.example/')).toEqual({ ok: true });
    expect(csrfVerdict({ ...behindProxy, origin: 'http://memlens.example' }, 'https://memlens.example').ok).toBe(false);
  });
});

/** A request as the browser would send it to the app. */
function browserRequest(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new NextRequest(`${APP}${path}`, {
    method: init.method ?? 'GET',
    headers: { host: '127.0.0.1:3000', ...init.headers },
    body: init.body,
  });
}

const cspOf = (response: Response) => response.headers.get('content-security-policy') ?? '';
const nonceIn = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
// NextResponse.next() hands control on to the page or handler; a refusal never does.
const continues = (response: Response) => response.headers.get('x-middleware-next') === '1';

describe('proxy', () => {
  afterEach(() => {
    delete process.env.APP_URL;
    resetConfigForTests();
  });

  it('refuses the attack: a text/plain form post from another port, with the victim cookie, gets 403 and never reaches the route', async () => {
    const attack = browserRequest('/api/import', {
      method: 'POST',
      headers: { cookie: COOKIE, origin: OTHER_PORT, 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' },
      body: '{"messages":[{"role":"user","content":"My name is Mallory","ignore":"="}]}',
    });
    const response = proxy(attack);
    expect(response.status).toBe(403);
    expect(continues(response)).toBe(false);
    expect(await response.json()).toEqual({ error: { code: 'cross_origin', message: expect.stringContaining('Cross-origin') } });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a same-origin post that is not JSON with 415', async () => {
    const response = proxy(
      browserRequest('/api/conversations', {
        method: 'POST',
        headers: { cookie: COOKIE, origin: APP, 'sec-fetch-site': 'same-origin', 'content-type': 'text/plain' },
        body: '{}',
      }),
    );
    expect(response.status).toBe(415);
    expect(continues(response)).toBe(false);
    expect((await response.json()).error.code).toBe('unsupported_media_type');
  });

  it("lets the app's own JSON post through, and a script's", () => {
    const own = browserRequest('/api/conversations', {
      method: 'POST',
      headers: { cookie: COOKIE, origin: APP, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: '{}',
    });
    const script = browserRequest('/api/conversations', {
      method: 'POST',
      headers: { cookie: COOKIE, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(continues(proxy(own))).toBe(true);
    expect(continues(proxy(script))).toBe(true);
  });

  it('reads APP_URL from the configuration', () => {
    const behindProxy = browserRequest('/api/memory', {
      method: 'DELETE',
      headers: { host: 'app:3000', cookie: COOKIE, origin: 'https://memlens.example' },
    });
    expect(proxy(behindProxy).status).toBe(403);
    process.env.APP_URL = 'https://memlens.example';
    resetConfigForTests();
    expect(continues(proxy(behindProxy))).toBe(true);
  });

  it('gives a page a CSP with a fresh nonce, passed to Next on the request, and the other security headers', () => {
    const first = proxy(browserRequest('/', { headers: { cookie: COOKIE } }));
    const csp = cspOf(first);
    const nonce = nonceIn(csp);
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{24}$/);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    // Next reads the nonce from the request's own CSP header while it renders.
    expect(first.headers.get('x-middleware-request-content-security-policy')).toBe(csp);
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(first.headers.get('x-frame-options')).toBe('DENY');
    expect(nonceIn(cspOf(proxy(browserRequest('/', { headers: { cookie: COOKIE } }))))).not.toBe(nonce);
  });

  it('gives an API response a policy that loads nothing and cannot be framed', () => {
    const response = proxy(browserRequest('/api/conversations', { headers: { cookie: COOKIE } }));
    expect(cspOf(response)).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('issues no cookie on a visit: a guest session starts with its first write (lib/session.ts)', () => {
    expect(proxy(browserRequest('/')).headers.get('set-cookie')).toBeNull();
    expect(proxy(browserRequest('/api/me')).headers.get('set-cookie')).toBeNull();
  });
});
