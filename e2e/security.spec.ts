import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Cross-site request forgery and the security headers, in real Chromium. The attacker's pages are
// served by a tiny server on another port of the same host: the same *site* as the app, so the
// victim's SameSite=Lax cookies go along with its requests. Only Origin/Sec-Fetch-Site tell them apart.

let attacker: http.Server;
let attackerOrigin: string;

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a hook's fixtures from this pattern and requires one even when the hook takes none
test.beforeAll(async ({}, testInfo) => {
  const app = testInfo.project.use.baseURL!;
  const pages: Record<string, string> = { '/attack': attackPage(app), '/frame': framingPage(app) };
  attacker = http.createServer((request, response) => {
    const page = pages[request.url ?? ''];
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => attacker.close(resolve));
});

/**
 * Plants memory in whoever visits: two credentialed no-cors fetches (text/plain needs no preflight),
 * then a text/plain form post whose one field spells a JSON body (`name=value` with the `=` inside a string).
 */
function attackPage(app: string): string {
  const planted = 'My name is Mallory and I live in Atlantis.';
  const formField = `{"title":"planted by a form","messages":[{"role":"user","content":"${planted}`;
  return `<!doctype html><title>You won a prize</title>
<form id="form" method="POST" action="${app}/api/import" enctype="text/plain">
  <input type="hidden" name='${formField}' value='"}]}'>
</form>
<script>
  const send = (path, body) => fetch(${JSON.stringify(app)} + path, {
    method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body),
  });
  Promise.allSettled([
    send('/api/import', { title: 'planted by fetch', messages: [{ role: 'user', content: ${JSON.stringify(planted)} }] }),
    send('/api/facts', { content: 'I live in Atlantis' }),
  ]).then(() => document.getElementById('form').submit());
</script>`;
}

function framingPage(app: string): string {
  return `<!doctype html><title>framing</title><iframe id="app" src="${app}/" width="800" height="600"></iframe>`;
}

async function conversationIds(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/conversations');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { conversations: Array<{ id: string }> }).conversations.map((c) => c.id).sort();
}

async function factContents(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/facts');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { facts: Array<{ content: string }> }).facts.map((f) => f.content).sort();
}

/** Everything Chromium reports about CSP: violation events in the page, console refusals, uncaught errors. */
async function watchForCspTrouble(page: Page): Promise<string[]> {
  const trouble: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|CSP violation|Refused to/i.test(message.text())) trouble.push(message.text());
  });
  page.on('pageerror', (error) => trouble.push(error.message));
  return trouble;
}

test('a page on another port of the same host cannot create conversations or plant facts', async ({ page, baseURL, app, chat }) => {
  await page.goto('/');
  await app.waitForHydration();
  await chat.newConversation();
  const conversationsBefore = await conversationIds(page);
  const factsBefore = await factContents(page);

  const attempts: Array<{ path: string; status: number }> = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin === baseURL && response.request().method() === 'POST') attempts.push({ path: url.pathname, status: response.status() });
  });
  await page.goto(`${attackerOrigin}/attack`);
  // The form's post is a navigation to the app's answer.
  await page.waitForURL(`${baseURL}/api/import`);
  await expect.poll(() => attempts.length).toBe(3);

  expect(attempts.map((a) => a.status)).toEqual([403, 403, 403]);
  expect((await page.locator('body').innerText()).replace(/\s+/g, '')).toContain('"code":"cross_origin"');
  expect(await conversationIds(page)).toEqual(conversationsBefore);
  expect(await factContents(page)).toEqual(factsBefore);
});

test('pages and API responses carry the security headers', async ({ page, baseURL }) => {
  const pageResponse = (await page.goto('/login'))!;
  const csp = (await pageResponse.headerValue('content-security-policy')) ?? '';
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce, 'a nonce in the page CSP').toBeTruthy();
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("img-src 'self' data:");
  expect(csp).toContain("object-src 'none'");
  // Every script Next wrote into the page carries this response's nonce (a prerendered page would not).
  const scripts = (await pageResponse.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

  const apiResponse = await page.request.get('/api/conversations');
  expect(apiResponse.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");

  const chunk = /<script\b[^>]*src="([^"]+)"/.exec(await pageResponse.text())![1];
  const staticResponse = await page.request.get(new URL(chunk, baseURL).toString());
  expect(staticResponse.ok()).toBe(true);

  for (const [what, headers] of [
    ['page', await pageResponse.headersArray()],
    ['API', apiResponse.headersArray()],
    ['static file', staticResponse.headersArray()],
  ] as const) {
    const values = (name: string) => headers.filter((h) => h.name.toLowerCase() === name).map((h) => h.value);
    expect(values('x-content-type-options'), what).toEqual(['nosniff']);
    expect(values('referrer-policy'), what).toEqual(['strict-origin-when-cross-origin']);
    expect(values('x-frame-options'), what).toEqual(['DENY']);
    expect(values('x-powered-by'), what).toEqual([]);
  }
});

test('the app works under its CSP: home, a chat with markdown and charts, the sign-in and memory pages', async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  const trouble = await watchForCspTrouble(page);
  await page.goto('/');
  await app.waitForHydration();

  await chat.askAboutALearnedFact(memory);
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  await expect(inspector.root.getByTestId('budget-chart').locator('svg.recharts-surface')).toHaveCount(1);
  await expect(inspector.root.getByTestId('timeline-chart').locator('svg.recharts-surface')).toHaveCount(1);

  for (const path of ['/login', '/signup', '/memory']) {
    await page.goto(path);
    await app.waitForHydration();
  }
  expect(trouble).toEqual([]);
});

test('another site cannot frame the app', async ({ page, baseURL }) => {
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('frame-ancestors')) refusals.push(message.text());
  });
  await page.goto(`${attackerOrigin}/frame`);
  await expect.poll(() => refusals.length, { message: 'Chromium reports the frame-ancestors refusal' }).toBeGreaterThan(0);
  expect(refusals[0]).toContain(`${baseURL}/`);
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  await expect(frame.locator('body[data-hydrated="true"]')).toHaveCount(0);
});

test('signing in never leads to another host, however ?next= spells it', async ({ page, baseURL, auth, member }) => {
  test.setTimeout(150_000);
  const app = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== app) elsewhere.push(request.url());
  });
  // As typed in the address bar: the query is decoded once, so %2e%2e arrives as "..", %252e%252e as "%2e%2e".
  for (const next of [
    '/..//evil.test/owned',
    '/%2e%2e//evil.test/owned',
    '/.%2e//evil.test/owned',
    '/%2E%2E//evil.test/owned',
    '/%252e%252e//evil.test/owned',
    '/.//evil.test/owned',
    '//evil.test/owned',
    '/%5C/evil.test/owned',
    '/%09/evil.test/owned',
    'javascript:alert(1)',
  ]) {
    await auth.signInAt(`/login?next=${next}`, member.email, member.password, (url) => url.pathname === '/');
    expect(new URL(page.url()).origin, next).toBe(app);
  }
  // A path of the app is still where sign-in leads.
  await auth.signInAt('/login?next=/memory', member.email, member.password, (url) => url.pathname === '/memory');
  expect(elsewhere).toEqual([]);
});
