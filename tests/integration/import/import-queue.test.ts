import { afterEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation, GET as listConversations } from '@/app/api/conversations/route';
import { GET as getImportRoute } from '@/app/api/import/[id]/route';
import { GET as listImports, POST as postImport } from '@/app/api/import/route';
import { getSql } from '@/db/client';
import { runDueImports, runNextImport } from '@/lib/import-queue';
import { setWorkerWake } from '@/lib/memory/jobs/worker-signal';
import { type Client, newClient, params, readChunks, setEnv, storedMessages, waitFor } from '@/tests/support/app';
import { importFinished, readImport } from '@/tests/support/imports';

// POST /api/import answers at once and the worker (here: the in-process fallback that runs after
// the response, as post-turn work does without a worker) stores and remembers the conversation a
// chunk at a time, with progress read through GET /api/import/:id.

afterEach(() => {
  setEnv({ IMPORT_CHUNK: undefined });
  setWorkerWake(undefined);
});

function turns(count: number, tag = 'turn') {
  return Array.from({ length: count }, (_, i) => [
    { role: 'user' as const, content: `In ${tag} ${i} I talked about the garden bed number ${i} and the tomatoes in it.` },
    { role: 'assistant' as const, content: `Noted about bed ${i}.` },
  ]).flat();
}

function sendImport(client: Client, body: unknown) {
  return postImport(client.request('/api/import', { body }));
}

async function rows(table: 'messages' | 'conversations' | 'jobs' | 'episodes' | 'imports', userId: string): Promise<number> {
  const [row] = await getSql()`select count(*)::int as n from ${getSql()(table)} where user_id = ${userId}`;
  return row.n;
}

describe('POST /api/import queues the import for the worker', () => {
  it('answers 202 with the pending import and its Location before the messages are stored, then reaches done with the right counts', async () => {
    setEnv({ IMPORT_CHUNK: '100' });
    const alice = await newClient();
    const messages = turns(600);
    const response = await sendImport(alice, { title: 'Garden log', messages });
    // Read before anything else is awaited: the ingestion has not been done inside the request.
    const storedWhenAnswered = await rows('messages', alice.user.id);

    expect(response.status).toBe(202);
    const { import: queued } = await response.json();
    expect(response.headers.get('location')).toBe(`/api/import/${queued.id}`);
    expect(queued).toMatchObject({
      status: 'pending',
      title: 'Garden log',
      conversationId: null,
      messages: { total: 1200, stored: 0 },
      replies: { total: 600, done: 0 },
    });
    expect(storedWhenAnswered).toBeLessThan(1200);

    // Progress is seen moving (stored messages, then remembered replies), never backwards.
    const seen: number[] = [];
    const done = await waitFor(async () => {
      const view = await readImport(alice, queued.id);
      seen.push(view.progress);
      return view.status === 'done' || view.status === 'failed' ? view : undefined;
    }, 120_000);
    expect(done).toMatchObject({
      status: 'done',
      error: null,
      messages: { total: 1200, stored: 1200 },
      replies: { total: 600, done: 600 },
      progress: 1,
      jobs: { done: 1800, failed: 0 },
    });
    expect(seen.some((p) => p > 0 && p < 1)).toBe(true);
    expect(seen).toEqual(seen.toSorted((a, b) => a - b));
    const stored = await storedMessages(done.conversationId!);
    expect(stored.map((m) => m.content)).toEqual(messages.map((m) => m.content));
    expect(await rows('episodes', alice.user.id)).toBe(600);
    // The payload is not kept once the messages are.
    const [row] =
      await getSql()`select payload is null as dropped, finished_at is not null as finished from imports where id = ${queued.id}`;
    expect(row).toEqual({ dropped: true, finished: true });
    // Listed, and in the sidebar only once done.
    const listed = (await (await listImports(alice.request('/api/import'))).json()).imports;
    expect(listed.map((i: { id: string }) => i.id)).toEqual([queued.id]);
    const conversations = (await (await listConversations(alice.request('/api/conversations'))).json()).conversations;
    expect(conversations.map((c: { id: string }) => c.id)).toContain(done.conversationId);
  }, 180_000);

  it("serves another user's chat while a large import is ingesting", async () => {
    setEnv({ IMPORT_CHUNK: '100' });
    const alice = await newClient();
    const bob = await newClient();
    const { id: bobsConversation } = (await (await createConversation(bob.request('/api/conversations', { method: 'POST' }))).json())
      .conversation;
    const queued = (await (await sendImport(alice, { messages: turns(600) })).json()).import;
    await waitFor(async () => (await readImport(alice, queued.id)).messages.stored > 0, 30_000);

    // Not a performance target (those are in bench/): only that Bob is not made to wait for the whole import.
    const started = Date.now();
    const chunks = await readChunks(
      await chat(bob.request('/api/chat', { body: { conversationId: bobsConversation, message: { text: 'Hello while Alice imports' } } })),
    );
    const bobWaited = Date.now() - started;
    const aliceThen = await readImport(alice, queued.id);

    expect(chunks.some((c) => c.type === 'finish')).toBe(true);
    expect(aliceThen.status).toBe('running');
    expect(bobWaited).toBeLessThan(20_000);
    // The conversation being filled is not in Alice's sidebar yet.
    expect((await (await listConversations(alice.request('/api/conversations'))).json()).conversations).toEqual([]);
    expect((await importFinished(alice, queued.id, 180_000)).status).toBe('done');
  }, 240_000);

  it('refuses a bad body whole: 400 naming the field, no import, no conversation, no message', async () => {
    const alice = await newClient();
    const messages = turns(50);
    messages[77] = { role: 'assistant', content: '' };
    const response = await sendImport(alice, { messages });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain('messages.77.content');
    for (const table of ['imports', 'conversations', 'messages', 'jobs'] as const) expect(await rows(table, alice.user.id)).toBe(0);
  });

  it('refuses a second import while one is pending or running (409 naming it), and takes the next once it is done', async () => {
    const alice = await newClient();
    const [first, second] = await Promise.all([
      sendImport(alice, { messages: turns(200, 'first') }),
      sendImport(alice, { messages: turns(2, 'second') }),
    ]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    const [accepted, refused] = first.status === 202 ? [first, second] : [second, first];
    const { import: running } = await accepted.json();
    const { error } = await refused.json();
    expect(error.code).toBe('import_in_progress');
    expect(error.message).toContain(running.id);
    expect(await rows('imports', alice.user.id)).toBe(1);

    expect((await importFinished(alice, running.id)).status).toBe('done');
    const next = await sendImport(alice, { messages: turns(2, 'third') });
    expect(next.status).toBe(202);
    expect((await importFinished(alice, (await next.json()).import.id)).status).toBe('done');
    expect(await rows('conversations', alice.user.id)).toBe(2);
  }, 120_000);

  it("another user's import is a 404 and not in their list", async () => {
    const alice = await newClient();
    const mallory = await newClient();
    const { import: queued } = await (await sendImport(alice, { messages: turns(2) })).json();
    const response = await getImportRoute(mallory.request(`/api/import/${queued.id}`), params({ id: queued.id }));
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
    expect((await (await listImports(mallory.request('/api/import'))).json()).imports).toEqual([]);
    await importFinished(alice, queued.id);
  });

  it('a failed import says why and leaves nothing of what it had stored', async () => {
    setEnv({ IMPORT_CHUNK: '10' });
    const alice = await newClient();
    // A message the database refuses halfway: a trigger standing in for any failure while storing.
    const poison = `poison ${crypto.randomUUID()}`;
    const sql = getSql();
    await sql.unsafe(`create or replace function refuse_poison() returns trigger language plpgsql as $$ begin
      if new.content = '${poison}' then raise exception 'refused by the test trigger'; end if; return new; end $$`);
    await sql.unsafe('create trigger refuse_poison before insert on messages for each row execute function refuse_poison()');
    try {
      const messages = turns(30);
      messages[45] = { role: 'user', content: poison };
      const { import: queued } = await (await sendImport(alice, { messages })).json();
      const failed = await importFinished(alice, queued.id);
      expect(failed).toMatchObject({ status: 'failed', conversationId: null, messages: { total: 60 } });
      expect(failed.messages.stored).toBeGreaterThanOrEqual(40);
      expect(failed.error).toBe('Nothing was imported: refused by the test trigger');
      for (const table of ['conversations', 'messages', 'jobs', 'episodes'] as const) expect(await rows(table, alice.user.id)).toBe(0);
      // The user may send another.
      expect((await sendImport(alice, { messages: turns(1) })).status).toBe(202);
    } finally {
      await sql.unsafe('drop trigger refuse_poison on messages');
      await sql.unsafe('drop function refuse_poison');
    }
  });

  it('an import cut off midway (its worker stopped or died) resumes where it stopped and stores each message once', async () => {
    setEnv({ IMPORT_CHUNK: '20' });
    // A worker runs here, so the request leaves the import to it; this test plays that worker.
    setWorkerWake(() => {});
    const alice = await newClient();
    const messages = turns(200);
    const { import: queued } = await (await sendImport(alice, { messages })).json();
    const stop = new AbortController();
    const stopped = waitFor(async () => (await readImport(alice, queued.id)).messages.stored >= 100, 30_000).then(() => stop.abort());
    await runNextImport(stop.signal);
    await stopped;
    const cut = await readImport(alice, queued.id);
    expect(cut.status).toBe('running');
    expect(cut.replies.done).toBeLessThan(200);

    // Once its lease has lapsed, the next worker to look takes it up.
    await getSql()`update imports set updated_at = now() - interval '1 hour' where id = ${queued.id}`;
    await runDueImports();
    const done = await importFinished(alice, queued.id);
    expect(done).toMatchObject({ status: 'done', messages: { stored: 400 }, replies: { done: 200 } });
    expect((await storedMessages(done.conversationId!)).map((m) => m.content)).toEqual(messages.map((m) => m.content));
    const [jobs] =
      await getSql()`select count(*)::int as n, count(*) filter (where status = 'done')::int as done from jobs where user_id = ${alice.user.id}`;
    expect(jobs).toEqual({ n: 600, done: 600 });
  }, 120_000);
});
