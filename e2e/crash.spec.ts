import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import getPort from 'get-port';
import { OwnServer } from './setup/own-server';

// A crash, for real: the production server (the build this run made) on its own embedded data
// directory is killed with SIGKILL, process group and all, in the middle of a reply and in the
// middle of an import's post-turn work, then started again on the same directory. Nothing
// committed may be lost, the cut reply ends `incomplete` with the text it had, and every pending
// post-turn job is done soon after the restart.

// A server of its own, on a free port.
const PORT = await getPort({ host: '127.0.0.1' });
const base = `http://127.0.0.1:${PORT}`;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-crash-'));

function startServer(): OwnServer {
  return new OwnServer({
    PORT: String(PORT),
    PGLITE_DIR: path.join(root, 'pglite'),
    DATABASE_URL: '',
    OFFLINE_STREAM_DELAY_MS: '150',
    WORKER_POLL_MS: '200',
  });
}

async function ready(): Promise<number> {
  const started = Date.now();
  for (;;) {
    expect(Date.now() - started, 'the server did not start within 60 s').toBeLessThan(60_000);
    try {
      if ((await fetch(`${base}/api/me`, { headers: { cookie } })).status < 500) return Date.now();
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

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

test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// Told first, in a turn that completes: the cut turn asks about it, and the offline model answers by quoting it, for seconds.
const STORY =
  'I restore old wooden sailing boats in a shed by the harbour, sanding the hulls, replacing rotten planks and stitching new canvas sails, and this winter I am learning to weld steel fittings for the rigging.';
const QUESTION = 'My name is Idris Vantongeren. Which boats did I say I restore?';

test('SIGKILL mid-reply and mid-import: nothing committed is lost, and the work left undone is done after a restart', async () => {
  test.setTimeout(240_000);
  let server = startServer();
  try {
    await fetch(`${base}/`).catch(() => undefined);
    await ready();
    // The first write starts the guest session (a read makes none).
    const conversation = (await (await api('/api/conversations', { method: 'POST', body: { title: 'Crash' } })).json()).conversation;
    expect(cookie).not.toBe('');
    const told = await api('/api/chat', { method: 'POST', body: { conversationId: conversation.id, message: { text: STORY } } });
    const toldText = [...(await told.text()).matchAll(/"delta":"([^"]*)"/gu)].map((m) => m[1]).join('');
    expect(toldText).toBe('Got it.');

    // An import the worker is still storing or remembering when the server dies.
    const turns = Array.from({ length: 1500 }, (_, i) => [
      { role: 'user', content: `Entry ${i}: I planted ${i + 2} rows of heirloom carrots in plot ${i}.` },
      { role: 'assistant', content: `Noted, plot ${i}.` },
    ]).flat();
    // Queued at once (202); the worker is storing and remembering it a chunk at a time when the server dies.
    const queued = await api('/api/import', { method: 'POST', body: { title: 'Garden log', messages: turns } });
    expect(queued.status).toBe(202);
    const importId = ((await queued.json()) as { import: { id: string } }).import.id;

    // A reply cut mid-stream: asked about the story, the offline model quotes it, so it streams for seconds.
    const response = await api('/api/chat', {
      method: 'POST',
      body: { conversationId: conversation.id, message: { text: QUESTION } },
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    const streaming = Date.now();
    // Past the first save of the partial text (once a second).
    while (Date.now() - streaming < 2_500) {
      const next = await reader.read();
      if (next.done) throw new Error(`the reply ended before the crash: ${seen}`);
      seen += next.value;
    }
    const atCrash = ((await (await api(`/api/import/${importId}`)).json()) as { import: { status: string; progress: number } }).import;
    expect(atCrash.status, 'the import is cut off midway').not.toBe('done');
    await server.stop('SIGKILL');

    server = startServer();
    const up = await ready();

    // The question intact, the reply `incomplete` with the text saved before the crash.
    const stored = (await (await api(`/api/conversations/${conversation.id}/messages`)).json()).messages as Array<{
      role: string;
      content: string;
      status: string;
    }>;
    expect(stored.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([STORY, QUESTION]);
    const reply = stored.findLast((m) => m.role === 'assistant')!;
    expect(reply.status).toBe('incomplete');
    expect(reply.content.length).toBeGreaterThan(0);

    // The cut turn's jobs were committed with it: the name is learned after the restart.
    await within(10_000, async () => {
      // Searched: the list is paged, and the resumed import adds facts of its own.
      const facts = (await (await api('/api/facts?q=Idris')).json()).facts as Array<{ content: string }>;
      return facts.some((f) => f.content.includes('Idris')) || undefined;
    });

    // The import resumes where the crash cut it: every message once, and all its work done.
    const imported = await within(90_000, async () => {
      const view = ((await (await api(`/api/import/${importId}`)).json()) as { import: { status: string; conversationId: string | null } })
        .import;
      expect(view.status).not.toBe('failed');
      return view.status === 'done' ? view : undefined;
    });
    const garden = (await (await api(`/api/conversations/${imported.conversationId}/messages`)).json()).messages as unknown[];
    expect(garden).toHaveLength(turns.length);
    await within(10_000, async () => {
      const page = (await (await api('/api/episodes?q=heirloom')).json()) as { total: number };
      return page.total === 1500 || undefined;
    });
    console.log(
      `[crash] import cut at ${Math.round(atCrash.progress * 100)}% (${atCrash.status}); restart ready; pending work and the import done within ${Date.now() - up} ms`,
    );
  } finally {
    await server.stop('SIGKILL');
  }
});
