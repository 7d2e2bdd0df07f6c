import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import getPort from 'get-port';
import { OwnServer } from './setup/own-server';

// The production server (this run's build, started as `npm start` starts it, on an embedded database
// of its own), its output read as an operator reads it. better-auth logs a callbackURL it refuses as
// it was given, and only in production (its tests skip the check): a CR/LF in the query must not
// start a line of its own, and the value, a query parameter, must not reach the log at all.

const PORT = await getPort({ host: '127.0.0.1' });
const base = `http://127.0.0.1:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-log-injection-'));
let server: OwnServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = new OwnServer({ PORT: String(PORT), PGLITE_DIR: dataDir, DATABASE_URL: '', MEMLENS_DEBUG: '' });
  await server.printed(/production server \d+ Ready in/, 110_000);
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a refused callbackURL with CR/LF in it is logged as the kind of refusal: no forged line, no value', async () => {
  const forged = encodeURIComponent('\r\n[memlens] forged line \u001b[31m');
  const signIn = await fetch(`${base}/api/auth/sign-in/email?callbackURL=${forged}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'nobody@memlens.test', password: 'not-the-password' }),
  });
  expect(signIn.status).toBe(403);
  const verify = await fetch(`${base}/api/auth/verify-email?token=x&callbackURL=${forged}`, { redirect: 'manual' });
  expect(verify.status).toBeGreaterThanOrEqual(300);

  const logged = await server!.printed(/auth: Invalid callbackURL/, 10_000);
  expect(logged).toBe('[memlens] auth: Invalid callbackURL: …');
  expect(server!.output).not.toContain('forged');
  expect(server!.output).not.toContain('\u001b');
  expect(server!.output).not.toContain('\r');
});
