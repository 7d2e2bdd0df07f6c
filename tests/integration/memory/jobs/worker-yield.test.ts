import { afterEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { getSql } from '@/db/client';
import { liveTurns } from '@/lib/memory/jobs/worker-signal';
import { startWorker, type Worker } from '@/lib/worker';
import { type Client, newClient, readUntil, setEnv, waitFor } from '@/tests/support/app';
import { importTurns } from '@/tests/support/memory';

/** A conversation's jobs by status. */
const jobStates = async (conversationId: string) =>
  Object.fromEntries(
    (await getSql()`select status, count(*)::int as n from jobs where conversation_id = ${conversationId} group by status`).map((row) => [
      row.status,
      row.n,
    ]),
  ) as Record<string, number>;

/** A conversation's post-turn work done, then due again as if just enqueued. */
const makeDueAgain = (conversationId: string) =>
  getSql()`update jobs set status = 'pending', attempts = 0, run_after = now() where conversation_id = ${conversationId}`;

/** Starts a chat turn and reads it until the reply's first words: the turn is live. */
async function startTurn(client: Client, conversationId: string, text: string) {
  const response = await chat(client.request('/api/chat', { body: { conversationId, message: { text } } }));
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  await readUntil(reader, (sent) => sent.includes('"type":"text-delta"'));
  return reader;
}

async function readToEnd(reader: ReadableStreamDefaultReader<string>) {
  for (let next = await reader.read(); !next.done; next = await reader.read());
}

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  setEnv({ WORKER_MAX_WAIT_MS: undefined, OFFLINE_STREAM_DELAY_MS: '0' });
});

describe('post-turn work yields to live turns', () => {
  it('a due job waits while a turn is being served, and runs once it has ended', async () => {
    setEnv({ WORKER_MAX_WAIT_MS: '60000', OFFLINE_STREAM_DELAY_MS: '30' });
    const client = await newClient();
    const waiting = await importTurns(client.user.id, [['I keep a sourdough starter named Bubbles.', 'A fine name.']], 'waiting');
    const chatting = await importTurns(client.user.id, [['Hello again.', 'Hello!']], 'chatting');
    await waitFor(async () => (await jobStates(waiting)).done === 3 && (await jobStates(chatting)).done === 3);
    await makeDueAgain(waiting);

    const turn = await startTurn(client, chatting, '我在学做寿司，下周想请朋友来家里吃饭。');
    expect(liveTurns()).toBe(1);
    worker = startWorker({ pollMs: 50, onlyUserId: client.user.id });
    // A dozen polls, and the due jobs are still waiting for the turn.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await jobStates(waiting)).toEqual({ pending: 3 });

    await readToEnd(turn);
    expect(liveTurns()).toBe(0);
    // The turn's end wakes the worker: no poll to wait for (a minute away by the bound).
    await waitFor(async () => (await jobStates(waiting)).done === 3 && (await jobStates(chatting)).done === 6);
  });

  it('a turn stops counting as live however it ends: read to its end, left by its client, or refused', async () => {
    setEnv({ OFFLINE_STREAM_DELAY_MS: '30' });
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['Hola.', '¡Hola!']], 'ends');
    const left = await startTurn(client, conversationId, 'Tell me a long story about a lighthouse keeper.');
    expect(liveTurns()).toBe(1);
    await left.cancel();
    expect(liveTurns()).toBe(0);

    const refused = await chat(client.request('/api/chat', { body: { conversationId, message: { text: '   ' } } }));
    expect(refused.status).toBe(400);
    expect(liveTurns()).toBe(0);

    await readToEnd(await startTurn(client, conversationId, '灯塔看守人每天做什么？'));
    expect(liveTurns()).toBe(0);
  });

  it('under turns that never pause, jobs run once they have waited WORKER_MAX_WAIT_MS, and catch up', async () => {
    setEnv({ WORKER_MAX_WAIT_MS: '1500', OFFLINE_STREAM_DELAY_MS: '10' });
    const client = await newClient();
    const waiting = await importTurns(
      client.user.id,
      [
        ['My brother Teodor is moving to Tallinn in spring.', 'Exciting news.'],
        ['He will work there as a ferry engineer.', 'Good luck to him.'],
      ],
      'waiting',
    );
    const conversations = [
      await importTurns(client.user.id, [['Hi.', 'Hi!']], 'first'),
      await importTurns(client.user.id, [['Hey.', 'Hey!']], 'second'),
    ];
    await waitFor(async () => (await jobStates(waiting)).done === 6 && (await jobStates(conversations[1])).done === 3);

    // Two conversations taking turns, each question sent while the other's reply streams: never a moment without a live turn.
    let open = await startTurn(client, conversations[0], 'What should I pack for a week of hiking in the rain? (turn 0)');
    const lowest = { live: liveTurns() };
    const sampler = setInterval(() => (lowest.live = Math.min(lowest.live, liveTurns())), 5);
    await makeDueAgain(waiting);
    const madeDue = Date.now();
    worker = startWorker({ pollMs: 50, onlyUserId: client.user.id });
    const seen: Array<{ at: number; done: number }> = [];
    for (let turn = 1; turn < 60 && seen.at(-1)?.done !== 6; turn++) {
      const next = await startTurn(client, conversations[turn % 2], `Another question about rain gear, turn ${turn}.`);
      await readToEnd(open);
      open = next;
      seen.push({ at: Date.now() - madeDue, done: (await jobStates(waiting)).done ?? 0 });
    }
    clearInterval(sampler);
    await readToEnd(open);

    expect(lowest.live).toBeGreaterThanOrEqual(1);
    // Held back at first, turn after turn; done, beside the turns, once past the bound.
    expect(seen.filter((s) => s.done === 0).length).toBeGreaterThanOrEqual(2);
    expect(seen.find((s) => s.done > 0)!.at).toBeGreaterThanOrEqual(1500);
    expect(seen.at(-1)!.done).toBe(6);
    // And once the turns stop, everything they queued is done too.
    await waitFor(async () => {
      const [{ left }] = await getSql()`select count(*)::int as left from jobs where user_id = ${client.user.id} and status <> 'done'`;
      return left === 0;
    }, 15_000);
  }, 60_000);
});
