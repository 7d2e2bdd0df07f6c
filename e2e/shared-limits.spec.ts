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

test.afterAll(async () => {
  await server?.stop();
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
