import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { assertBuilt, type RunningServer, startProductionServer } from '../bench/lib/load-server';

// better-auth's per-address sign-in limit (3 in 10 s) must hold for the whole app, not per server
// process: with WEB_CONCURRENCY=2 the launcher hands connections to its two processes in turn, so a
// count kept in each process's memory let twice as many tries through. The count is in Postgres
// (auth_rate_limits). The server is this run's production build on its own embedded database.

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-limits-e2e-'));
let server: RunningServer | undefined;
let limited: RunningServer | undefined;

test.afterAll(async () => {
  await server?.stop();
  await limited?.stop();
  fs.rmSync(logDir, { recursive: true, force: true });
});

test('sign-in tries from one address are counted once across two server processes', async () => {
  test.setTimeout(180_000);
  assertBuilt();
  process.env.WEB_CONCURRENCY = '2';
  try {
    // No model is called here: sign-in only.
    server = await startProductionServer({ stubBaseURL: 'http://127.0.0.1:9/v1', logFile: path.join(logDir, 'server.log') });
  } finally {
    delete process.env.WEB_CONCURRENCY;
  }
  // The server answers once one process listens; both must, or every try would reach the same one.
  await expect
    .poll(() => fs.readFileSync(path.join(logDir, 'server.log'), 'utf8').match(/Ready in/gu)?.length ?? 0, { timeout: 60_000 })
    .toBe(2);

  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    // A new connection each time (the cluster alternates them between the processes), a new account each time.
    statuses.push(await signIn(server.baseUrl, `nobody-${i}-${Date.now()}@memlens.test`));
  }
  expect(statuses).toEqual([401, 401, 401, 429]);
});

// Every limit answers 429 with Retry-After in the production bundle too, where an error that better-auth
// wraps, or a class a bundle holds twice, once turned the guest limit into a 500.
test('every limit answers 429 with Retry-After on the built server', async () => {
  test.setTimeout(180_000);
  assertBuilt();
  limited = await startProductionServer({
    stubBaseURL: 'http://127.0.0.1:9/v1',
    logFile: path.join(logDir, 'limited.log'),
    env: { GUESTS_PER_ADDRESS_PER_HOUR: '2', CHAT_RATE_LIMIT: '1', SIGN_IN_FAILURES_PER_ACCOUNT: '1', ACCOUNT_MAILS_PER_ADDRESS: '1' },
  });
  const base = limited.baseUrl;
  const post = (route: string, body: unknown, cookie = '') =>
    fetch(`${base}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, cookie },
      body: JSON.stringify(body),
    });
  const refusal = async (response: Response) => ({
    status: response.status,
    retryAfter: Number(response.headers.get('retry-after')),
    code: ((await response.json()) as { error: { code: string } }).error.code,
  });

  // New guests from one address: the third in the hour is refused.
  const first = await post('/api/conversations', {});
  expect(first.status).toBe(201);
  const cookie = first.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const conversationId = ((await first.json()) as { conversation: { id: string } }).conversation.id;
  expect((await post('/api/conversations', {})).status).toBe(201);
  expect(await refusal(await post('/api/conversations', {}))).toEqual({ status: 429, retryAfter: 3600, code: 'too_many_guests' });

  // Chat requests per user.
  const message = (text: string) => ({ conversationId, message: { id: crypto.randomUUID(), text } });
  await (await post('/api/chat', message('One.'), cookie)).text();
  const chat = await refusal(await post('/api/chat', message('Two.'), cookie));
  expect(chat).toMatchObject({ status: 429, code: 'rate_limited' });
  expect(chat.retryAfter).toBeGreaterThan(0);

  // Failed sign-ins per account (our hook, inside better-auth), then better-auth's own per-address limit.
  const signIn = (email: string) => post('/api/auth/sign-in/email', { email, password: 'not the password' });
  expect((await signIn('target@memlens.test')).status).toBe(401);
  const perAccount = await refusal(await signIn('target@memlens.test'));
  expect(perAccount).toMatchObject({ status: 429, code: 'rate_limited' });
  expect(perAccount.retryAfter).toBeGreaterThan(0);
  expect((await signIn('third@memlens.test')).status).toBe(401);
  const perAddress = await refusal(await signIn('fourth@memlens.test'));
  expect(perAddress).toMatchObject({ status: 429, code: 'rate_limited' });
  expect(perAddress.retryAfter).toBeGreaterThan(0);

  // Verification links sent again to one address.
  expect((await post('/api/auth/send-verification-email', { email: 'resend@memlens.test' })).status).toBe(200);
  const resend = await refusal(await post('/api/auth/send-verification-email', { email: 'resend@memlens.test' }));
  expect(resend).toMatchObject({ status: 429, code: 'rate_limited' });
  expect(resend.retryAfter).toBeGreaterThan(0);
  expect(limited.exited()).toBeUndefined();
});

/** One sign-in on a connection of its own (no keep-alive agent); its status. */
function signIn(baseUrl: string, email: string): Promise<number> {
  const body = JSON.stringify({ email, password: 'not the password' });
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', origin: baseUrl, 'content-length': Buffer.byteLength(body) },
    });
    request.setTimeout(20_000, () => request.destroy(new Error('sign-in was not answered in 20 s')));
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
}
