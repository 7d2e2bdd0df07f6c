import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import getPort from 'get-port';

// The production server (this run's build, started as `npm start` starts it, on an embedded database
// of its own), its output read as an operator reads it. better-auth logs a callbackURL it refuses as
// it was given, and only in production (its tests skip the check): a CR/LF in the query must not
// start a line of its own, and the value, a query parameter, must not reach the log at all.

const PORT = await getPort({ host: '127.0.0.1' });
const base = `http://127.0.0.1:${PORT}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-log-injection-'));
let server: ChildProcess | undefined;
let output = '';
const listeners = new Set<() => void>();

/** Resolves once the server has printed a line matching `pattern`; fails after `ms`, showing what it printed. */
function printed(pattern: RegExp, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = output.split('\n').find((candidate) => pattern.test(candidate));
      if (line === undefined) return;
      listeners.delete(check);
      clearTimeout(timer);
      resolve(line);
    };
    const timer = setTimeout(() => {
      listeners.delete(check);
      reject(new Error(`no line matching ${pattern} within ${ms} ms; the server printed:\n${output}`));
    }, ms);
    listeners.add(check);
    check();
  });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = spawn(process.execPath, [path.resolve('node_modules/.bin/tsx'), '--conditions=react-server', 'scripts/start.ts', 'start'], {
    detached: true, // its own process group, stopped whole
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(PORT),
      APP_HOST: '127.0.0.1',
      PGLITE_DIR: dataDir,
      DATABASE_URL: '',
      OPENAI_API_KEY: '',
      MEMLENS_DEBUG: '',
      NEXT_TELEMETRY_DISABLED: '1',
    },
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of [...listeners]) listener();
  };
  server.stdout!.on('data', collect);
  server.stderr!.on('data', collect);
  await printed(/production server \d+ Ready in/, 110_000);
});

test.afterAll(async () => {
  if (server?.pid) {
    process.kill(-server.pid, 'SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
  }
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

  const logged = await printed(/auth: Invalid callbackURL/, 10_000);
  expect(logged).toBe('[memlens] auth: Invalid callbackURL: …');
  expect(output).not.toContain('forged');
  expect(output).not.toContain('\u001b');
  expect(output).not.toContain('\r');
});
