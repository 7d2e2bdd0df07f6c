import { rawExchange, writeHead, writeUntilAnswered } from '../tests/support/raw-http';
import { expect, test } from './fixtures';
import { uniqueEmail } from './pages/auth-page';

// The app's own server (lib/server/front-server.ts) in front of the production build, on the
// defaults but REQUEST_TIMEOUT_MS=5000 (playwright.config.ts): what must hold before any route runs.
// Raw sockets send what a browser or fetch cannot. Every exchange has a bounded wait.

const SECURITY_HEADERS = {
  'content-type': 'application/json',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'content-security-policy': expect.stringContaining("default-src 'none'"),
};

const portOf = (baseURL: string | undefined) => Number(new URL(baseURL!).port);

test('a rebound DNS name is not served, even with a matching Origin', async ({ baseURL }) => {
  const port = portOf(baseURL);
  const rebound = `evil.example:${port}`;
  const body = '{}';
  const write = await rawExchange(port, (socket) => {
    writeHead(socket, 'POST /api/conversations HTTP/1.1', {
      Host: rebound,
      Origin: `http://${rebound}`,
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
    });
    socket.write(body);
  });
  expect(write.response).toMatchObject({ status: 421, headers: SECURITY_HEADERS, json: { error: { code: 'unknown_host' } } });
  const page = await rawExchange(port, (socket) => writeHead(socket, 'GET / HTTP/1.1', { Host: rebound }));
  expect(page.response).toMatchObject({ status: 421, json: { error: { code: 'unknown_host' } } });
});

test('an absolute-form request line is a 400, not a redirect to another host', async ({ baseURL }) => {
  const exchange = await rawExchange(portOf(baseURL), (socket) => writeHead(socket, 'GET http://other.example/ HTTP/1.1'));
  expect(exchange.response).toMatchObject({ status: 400, headers: SECURITY_HEADERS, json: { error: { code: 'invalid_request_target' } } });
  expect(exchange.response?.headers.location).toBeUndefined();
});

test('malformed percent-encodings are a 400 JSON error with the security headers', async ({ request }) => {
  for (const path of ['/api/facts/%zz', '/%E0%A4%A', '/c/%']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(400);
    expect(response.headers()).toMatchObject(SECURITY_HEADERS);
    expect((await response.json()).error.code).toBe('invalid_path');
  }
});

test('Content-Length: 99999999999 is refused at once with a 413 and the connection closed', async ({ baseURL }) => {
  const exchange = await rawExchange(
    portOf(baseURL),
    (socket) =>
      writeHead(socket, 'POST /api/auth/sign-in/email HTTP/1.1', { 'Content-Type': 'application/json', 'Content-Length': '99999999999' }),
    { waitMs: 5_000 },
  );
  expect(exchange.response).toMatchObject({ status: 413, headers: SECURITY_HEADERS, json: { error: { code: 'too_large' } } });
  expect(exchange.closed).toBe(true);
  expect(exchange.elapsedMs).toBeLessThan(3_000);
});

test('a chunked body over 1 MiB to /api/auth/* is cut with a 413', async ({ baseURL }) => {
  const exchange = await rawExchange(
    portOf(baseURL),
    async (socket, answered) => {
      writeHead(socket, 'POST /api/auth/sign-in/email HTTP/1.1', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      const chunk = `10000\r\n${'x'.repeat(0x10000)}\r\n`;
      // 64 KiB at a time, until the server answers: at most 4 MiB.
      await writeUntilAnswered(socket, answered, chunk, 64, 5);
    },
    { waitMs: 10_000 },
  );
  expect(exchange.response).toMatchObject({
    status: 413,
    headers: SECURITY_HEADERS,
    json: { error: { code: 'too_large', message: expect.stringContaining('1048576 bytes') } },
  });
  expect(exchange.closed).toBe(true);
});

test('a body trickled slower than REQUEST_TIMEOUT_MS gets a 408 and the connection closed', async ({ baseURL }) => {
  const exchange = await rawExchange(
    portOf(baseURL),
    async (socket, answered) => {
      writeHead(socket, 'POST /api/auth/sign-in/email HTTP/1.1', { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      // A byte every 200 ms: 1000 bytes would take 200 s.
      await writeUntilAnswered(socket, answered, 'x', 1000, 200);
    },
    { waitMs: 12_000 },
  );
  expect(exchange.response).toMatchObject({ status: 408, headers: SECURITY_HEADERS, json: { error: { code: 'request_timeout' } } });
  expect(exchange.closed).toBe(true);
  expect(exchange.elapsedMs).toBeLessThan(9_000);
});

test('a connection that never sends a byte is closed within the headers timeout', async ({ baseURL }) => {
  const exchange = await rawExchange(portOf(baseURL), () => undefined, { waitMs: 12_000 });
  expect(exchange.closed).toBe(true);
  expect(exchange.elapsedMs).toBeLessThan(9_000);
});

test('after sign-in, ?next=/%09/evil.host/ stays on the app', async ({ page, baseURL, app, auth }) => {
  // Should the app leave for evil.host, the page lands here instead of failing on DNS.
  await page.route(/^https?:\/\/evil\.host\//, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>evil</p>' }));
  const email = uniqueEmail('next');
  const password = 'correct horse 42';
  await auth.signUp(email, password);
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'guest');

  await page.goto('/login?next=/%09/evil.host/');
  await app.waitForHydration();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'member');
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  expect(new URL(page.url()).pathname).toBe('/');
});

test('sign-in attempts are limited per client address, whatever X-Forwarded-For claims', async ({ request, baseURL }) => {
  const statuses: number[] = [];
  for (let attempt = 1; attempt <= 40; attempt++) {
    const response = await request.post('/api/auth/sign-in/email', {
      // A different account each time, so only a limit per address can answer 429.
      data: { email: uniqueEmail(`guess${attempt}`), password: 'not the password' },
      headers: { origin: baseURL!, 'x-forwarded-for': `198.51.100.${attempt}`, 'x-memlens-client-address': `203.0.113.${attempt}` },
    });
    statuses.push(response.status());
  }
  // better-auth allows 3 sign-ins per address in 10 s (an earlier test's may count among them).
  expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(3);
  expect(statuses.slice(3).every((status) => status === 429)).toBe(true);
  expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);

  // better-auth's window is 10 s: later specs sign in from this address too.
  await expect
    .poll(
      async () =>
        (
          await request.post('/api/auth/sign-in/email', {
            data: { email: uniqueEmail('after'), password: 'not the password' },
            headers: { origin: baseURL! },
          })
        ).status(),
      {
        timeout: 20_000,
        intervals: [2_000],
      },
    )
    .toBe(401);
});
