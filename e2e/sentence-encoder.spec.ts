import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import getPort from 'get-port';

// The production server (the build this run made) with OFFLINE_EMBEDDER=sentence-encoder: the
// encoder runs in worker threads whose entry file the bundler must carry into the build. A turn
// embeds its question (before the reply) and indexes itself (after), both through those threads; a
// missing or broken thread would show as a warning on the turn and a failed job. SIGTERM must still
// stop the server: idle threads may not hold it.

const PORT = await getPort({ host: '127.0.0.1' });
const base = `http://127.0.0.1:${PORT}`;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-encoder-'));
let server: ChildProcess | undefined;
let output = '';
let cookie = '';

const api = async (url: string, init: { method?: string; body?: unknown } = {}) => {
  const response = await fetch(`${base}${url}`, {
    method: init.method ?? 'GET',
    headers: { cookie, 'content-type': 'application/json', origin: base },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const set = response.headers.get('set-cookie');
  if (set && !cookie) cookie = set.split(';')[0];
  return response;
};

/** Polls until `probe` gives a value, for at most `ms`. */
async function within<T>(ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    expect(Date.now() - started, `not within ${ms} ms`).toBeLessThan(ms);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The chunks of a reply's stream (server-sent events of JSON). */
async function chunksOf(response: Response): Promise<Array<{ type: string; data?: { warnings?: string[] } }>> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

test.beforeAll(async () => {
  server = spawn(process.execPath, [path.resolve('node_modules/.bin/tsx'), '--conditions=react-server', 'scripts/start.ts', 'start'], {
    detached: true, // its own process group, stopped whole
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(PORT),
      APP_HOST: '127.0.0.1',
      PGLITE_DIR: path.join(root, 'pglite'),
      DATABASE_URL: '',
      OPENAI_API_KEY: '',
      OFFLINE_EMBEDDER: 'sentence-encoder',
      OFFLINE_STREAM_DELAY_MS: '0',
      WORKER_POLL_MS: '200',
      NEXT_TELEMETRY_DISABLED: '1',
    },
  });
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await within(90_000, async () => ((await fetch(`${base}/login`).catch(() => undefined))?.status === 200 ? true : undefined));
});

test.afterAll(async () => {
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

test('the built server embeds in its worker threads, before and after the reply, and stops on SIGTERM', async () => {
  test.setTimeout(120_000);
  const { conversation } = await (await api('/api/conversations', { method: 'POST', body: { title: 'Encoder' } })).json();
  for (const text of ['I keep two beehives on the roof of our building.', 'Which insects live upstairs?']) {
    const chunks = await chunksOf(await api('/api/chat', { method: 'POST', body: { conversationId: conversation.id, message: { text } } }));
    expect(chunks.filter((c) => c.type === 'error')).toEqual([]);
    const turns = chunks.filter((c) => c.type === 'data-turn');
    expect(turns.length).toBeGreaterThan(0);
    expect(
      turns.flatMap((c) => c.data?.warnings ?? []),
      output,
    ).toEqual([]);
  }
  // Each turn indexed as an episode by the post-turn worker, through the same threads.
  await within(30_000, async () => {
    const page = (await (await api('/api/episodes?q=beehives')).json()) as { total: number };
    return page.total === 1 || undefined;
  });
  expect(output).not.toContain('sentence encoder failed');

  process.kill(-server!.pid!, 'SIGTERM');
  const code = await within(20_000, async () => server!.exitCode ?? server!.signalCode ?? undefined);
  expect(code, output).not.toBe('SIGKILL');
});
