import { afterEach, describe, expect, it, vi } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { getSql } from '@/db/client';
import { correctFact, forgetEpisode, forgetFacts, removeMessages } from '@/lib/memory/corrections';
import { undoChange } from '@/lib/memory/corrections/undo';
import { type Client, newClient, readChunks, setEnv } from '@/tests/support/app';
import { fingerprint } from '@/tests/support/fingerprint';
import { fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

// Every correction queues the re-derivation it needs in its own transaction: when queueing fails,
// the correction is not made at all (nothing is written), so no crash can leave corrected text in
// episodes or summaries with no job to derive them again. When queueing works, the jobs are there
// the moment the correction returns.

const queue = vi.hoisted(() => ({ down: false }));

vi.mock('@/db/jobs', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/db/jobs')>();
  return {
    ...real,
    requeueJobs: async (...args: Parameters<typeof real.requeueJobs>) => {
      if (queue.down) throw new Error('the job queue refused the insert');
      return real.requeueJobs(...args);
    },
  };
});

afterEach(() => {
  queue.down = false;
  setEnv({ SUMMARY_KEEP_RAW: undefined, HISTORY_WINDOW: undefined });
});

const TURNS: Array<[string, string]> = [
  ['I work as a glassblower in a small studio.', 'That sounds like a craft with a lot of heat.'],
  ['My sister is called Odile and she lives in Lyon.', 'Lyon is lovely in spring.'],
  ['What should I cook tonight?', 'Maybe a risotto.'],
];

/** A member whose conversation is long enough to be summarised: corrections rebuild the summary too. */
async function member(): Promise<{ client: Client; conversationId: string }> {
  const client = await newClient();
  setEnv({ SUMMARY_KEEP_RAW: '4', HISTORY_WINDOW: '4' });
  const conversationId = await importTurns(client.user.id, [...TURNS, ...fillerTurns(8)]);
  expect(await getSql()`select 1 from summaries where user_id = ${client.user.id} and content <> ''`).toHaveLength(1);
  await postTurnSettled(client.user.id);
  return { client, conversationId };
}

const factAbout = async (userId: string, words: string) =>
  (await getSql()`select id from facts where user_id = ${userId} and status = 'active' and content like ${`%${words}%`}`)[0]?.id as string;

const messageSaying = async (userId: string, words: string) =>
  (await getSql()`select id from messages where user_id = ${userId} and content like ${`%${words}%`}`)[0]?.id as string;

const jobsQueuedSince = async (userId: string, since: Date) =>
  Number((await getSql()`select count(*)::int as n from jobs where user_id = ${userId} and updated_at >= ${since}`)[0].n);

/** With the queue down the correction fails and writes nothing; with it up, it queues jobs at once. */
async function queuedWithTheChange(userId: string, correct: () => Promise<unknown>) {
  const before = await fingerprint([userId]);
  queue.down = true;
  await expect(correct()).rejects.toThrow('the job queue refused the insert');
  expect(await fingerprint([userId])).toEqual(before);
  queue.down = false;
  const [{ now }] = await getSql()`select now()`;
  await correct();
  expect(await jobsQueuedSince(userId, now)).toBeGreaterThan(0);
  await postTurnSettled(userId);
}

describe('a correction and the jobs it needs are one transaction', () => {
  it('editing a fact', async () => {
    const { client } = await member();
    const id = await factAbout(client.user.id, 'glassblower');
    expect(id).toBeDefined();
    await queuedWithTheChange(client.user.id, () => correctFact(client.user.id, id, 'I work as a potter.', client.user.id));
    expect((await getSql()`select content from facts where id = ${id}`)[0].content).toBe('I work as a potter.');
  });

  it('deleting a fact, and undoing the deletion', async () => {
    const { client } = await member();
    const id = await factAbout(client.user.id, 'Odile');
    expect(id).toBeDefined();
    let undo: { id: string } | null = null;
    await queuedWithTheChange(client.user.id, async () => {
      undo = (await forgetFacts(client.user.id, [id], client.user.id)).undo;
    });
    expect(undo).not.toBeNull();
    await queuedWithTheChange(client.user.id, () => undoChange(client.user.id, undo!.id, client.user.id));
    expect(await factAbout(client.user.id, 'Odile')).toBe(id);
  });

  it('forgetting a remembered exchange', async () => {
    const { client } = await member();
    const [episode] = await getSql()`select id from episodes where user_id = ${client.user.id} and content like ${'%risotto%'}`;
    expect(episode).toBeDefined();
    await queuedWithTheChange(client.user.id, () => forgetEpisode(client.user.id, episode.id, client.user.id));
    expect(await getSql()`select 1 from episodes where id = ${episode.id}`).toHaveLength(0);
  });

  it('removing a message', async () => {
    const { client, conversationId } = await member();
    const id = await messageSaying(client.user.id, 'glassblower');
    await queuedWithTheChange(client.user.id, () => removeMessages({ userId: client.user.id, conversationId }, [id], client.user.id));
    expect(await messageSaying(client.user.id, 'glassblower')).toBeUndefined();
  });

  it('editing a question in the chat', async () => {
    const { client, conversationId } = await member();
    const id = await messageSaying(client.user.id, 'Odile');
    const edit = async () => {
      const response = await chat(
        client.request('/api/chat', { body: { conversationId, message: { id, text: 'My brother is called Anselm.' } } }),
      );
      if (response.status !== 200) throw new Error(`the chat answered ${response.status}`);
      await readChunks(response);
    };
    const before = await fingerprint([client.user.id]);
    queue.down = true;
    const refused = await chat(
      client.request('/api/chat', { body: { conversationId, message: { id, text: 'My brother is called Anselm.' } } }),
    );
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(await fingerprint([client.user.id])).toEqual(before);
    queue.down = false;
    await edit();
    await postTurnSettled(client.user.id);
    expect(await messageSaying(client.user.id, 'Odile')).toBeUndefined();
    expect(await factAbout(client.user.id, 'Odile')).toBeUndefined();
  });
});
