import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import getPort from 'get-port';
import { OwnServer } from './setup/own-server';

// The production server (the build this run made) with OFFLINE_EMBEDDER=sentence-encoder: the
// encoder runs in worker threads whose entry file the bundler must carry into the build. A turn
// embeds its question (before the reply) and indexes itself (after), both through those threads; a
// missing or broken thread would show as a warning on the turn and a failed job. SIGTERM must still
// stop the server: idle threads may not hold it.

const PORT = await getPort({ host: '127.0.0.1' });
const base = `http://127.0.0.1:${PORT}`;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-encoder-'));
let server: OwnServer;
let api: APIRequestContext;

test.beforeAll(async () => {
  server = new OwnServer({
    PORT: String(PORT),
    PGLITE_DIR: path.join(root, 'pglite'),
    DATABASE_URL: '',
    OFFLINE_EMBEDDER: 'sentence-encoder',
    WORKER_POLL_MS: '200',
  });
  // Cookies kept across calls: the first write starts the guest session.
  api = await request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await expect.poll(async () => (await api.get('/login').catch(() => undefined))?.status(), { timeout: 90_000 }).toBe(200);
});

test.afterAll(async () => {
  await api.dispose();
  await server.stop('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

/** The chunks of a reply's stream (server-sent events of JSON). */
function chunksOf(body: string): Array<{ type: string; data?: { warnings?: string[] } }> {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

test('the built server embeds in its worker threads, before and after the reply, and stops on SIGTERM', async () => {
  test.setTimeout(120_000);
  const { conversation } = await (await api.post('/api/conversations', { data: { title: 'Encoder' } })).json();
  const replies: string[] = [];
  for (const text of ['I keep two beehives on the roof of our building.', 'Which insects live upstairs?']) {
    const reply = await api.post('/api/chat', { data: { conversationId: conversation.id, message: { text } } });
    const chunks = chunksOf(await reply.text());
    replies.push(chunks.map((c) => (c.type === 'text-delta' ? (c as { delta?: string }).delta : '')).join(''));
    expect(chunks.filter((c) => c.type === 'error')).toEqual([]);
    const turns = chunks.filter((c) => c.type === 'data-turn');
    expect(turns.length).toBeGreaterThan(0);
    expect(
      turns.flatMap((c) => c.data?.warnings ?? []),
      server.output,
    ).toEqual([]);
  }
  // The offline model judges with the same encoder: insects lead it to the beehives, which share no word with them.
  expect(replies[1]).toContain('I keep two beehives on the roof of our building.');
  // Each turn indexed as an episode by the post-turn worker, through the same threads. The answer's exchange keeps the
  // reply's own words, not its quote of the statement: only the statement's exchange holds the beehives.
  const episodes = async (q: string) => ((await (await api.get(`/api/episodes${q}`)).json()) as { total: number }).total;
  await expect.poll(() => episodes(''), { timeout: 30_000 }).toBe(2);
  expect(await episodes('?q=beehives')).toBe(1);
  expect(server.output).not.toContain('sentence encoder failed');

  // Next ends by itself, before the launcher's 10 s grace for it runs out, and the database after it.
  const stopping = Date.now();
  await server.stop('SIGTERM');
  expect(Date.now() - stopping).toBeLessThan(10_000);
  expect(server.output).toContain('embedded database stopped cleanly');
});
