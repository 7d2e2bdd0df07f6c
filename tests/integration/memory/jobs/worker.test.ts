import { afterEach, describe, expect, it, vi } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { getSql } from '@/db/client';
import { claimDueJobs, renewLeases } from '@/db/jobs';
import { postTurnWork, runDueJobs } from '@/lib/memory/jobs/queue';
import { startWorker, type Worker } from '@/lib/worker';
import { newClient, readUntil, setEnv, waitFor } from '@/tests/support/app';
import { activeFacts, importTurns } from '@/tests/support/memory';

const jobStates = async (userId: string) =>
  Object.fromEntries(
    (await getSql()`select status, count(*)::int as n from jobs where user_id = ${userId} group by status`).map((row) => [
      row.status,
      row.n,
    ]),
  ) as Record<string, number>;

let worker: Worker | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await worker?.stop();
  worker = undefined;
  setEnv({ JOB_LEASE_SECONDS: undefined });
});

describe('the post-turn worker', () => {
  it('enqueues a turn’s jobs with its placeholder; they wait while the reply is written, then run', async () => {
    // Slow enough that the reply is still being written while the test looks, however busy the machine.
    setEnv({ OFFLINE_STREAM_DELAY_MS: '250' });
    try {
      const client = await newClient();
      const conversationId = await importTurns(client.user.id, [['Hello there.', 'Hi.']]);
      await waitFor(async () => (await jobStates(client.user.id)).done === 3);
      const response = await chat(
        client.request('/api/chat', { body: { conversationId, message: { text: 'My name is Orla Quenby and I restore old clocks.' } } }),
      );
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      const started = await readUntil(reader, (text) => text.includes('"type":"text-delta"'));
      const replyId = /"messageId":"([0-9a-f-]{36})"/u.exec(started)![1];
      // Mid-stream: the jobs exist already, and no worker may take them yet.
      const [{ n: queued }] = await getSql()`select count(*)::int as n from jobs where message_id = ${replyId} and status = 'pending'`;
      expect(queued).toBe(3);
      expect(await claimDueJobs({ messageId: replyId }, { leaseSeconds: 15, maxAttempts: 5 })).toEqual([]);
      for (let next = await reader.read(); !next.done; next = await reader.read());
      await waitFor(async () => (await jobStates(client.user.id)).done === 6);
      expect((await activeFacts(client.user.id)).join(' ')).toContain('Orla Quenby');
    } finally {
      setEnv({ OFFLINE_STREAM_DELAY_MS: '0' });
    }
  });

  it('drains due jobs when it starts, and takes back a job whose worker died once its lease lapses', async () => {
    setEnv({ JOB_LEASE_SECONDS: '60' });
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['I live in Porto and keep bees on the roof of my flat.', 'Lovely.']]);
    await waitFor(async () => (await jobStates(client.user.id)).done === 3);
    // As a crash leaves them: one job claimed by a process that died, the others never run.
    const [reply] = await getSql()`select id from messages where conversation_id = ${conversationId} and role = 'assistant'`;
    await getSql()`delete from facts where user_id = ${client.user.id}`;
    await getSql()`update jobs set status = 'running', updated_at = now() where message_id = ${reply.id} and kind = 'extract_facts'`;
    await getSql()`update jobs set status = 'pending' where message_id = ${reply.id} and kind <> 'extract_facts'`;

    // (Only this user's jobs: the suite's other files share the database.)
    worker = startWorker({ pollMs: 100, onlyUserId: client.user.id });
    await waitFor(async () => (await jobStates(client.user.id)).done === 2);
    expect((await jobStates(client.user.id)).running).toBe(1); // its lease still holds
    // The lease lapses (its last renewal is older than JOB_LEASE_SECONDS): the worker takes the job back.
    await getSql()`update jobs set updated_at = now() - interval '61 seconds' where message_id = ${reply.id} and kind = 'extract_facts'`;
    await waitFor(async () => (await jobStates(client.user.id)).done === 3);
    expect((await activeFacts(client.user.id)).join(' ')).toMatch(/bees|Porto/u);
  });

  it('a renewed lease keeps a running job from being claimed twice', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['Just saying hello.', 'Hello!']]);
    const [reply] = await getSql()`select id from messages where conversation_id = ${conversationId} and role = 'assistant'`;
    await waitFor(async () => (await jobStates(client.user.id)).done === 3);
    const [job] =
      await getSql()`update jobs set status = 'running', updated_at = now() - interval '10 seconds' where message_id = ${reply.id} and kind = 'index_episode' returning id`;
    await renewLeases([job.id]);
    expect(await claimDueJobs({ messageId: reply.id }, { leaseSeconds: 5, maxAttempts: 5 })).toEqual([]);
    await getSql()`update jobs set updated_at = now() - interval '10 seconds' where id = ${job.id}`;
    expect((await claimDueJobs({ messageId: reply.id }, { leaseSeconds: 5, maxAttempts: 5 })).map((j) => j.id)).toEqual([job.id]);
  });

  it('claims a backlog a stretch of replies per conversation, those of the oldest due jobs first', async () => {
    const client = await newClient();
    const turns: Array<[string, string]> = [
      ['Ich backe jeden Sonntag Brot.', 'Schön.'],
      ['Mostly rye.', 'Good choice.'],
      ['我也喜欢做包子。', '很好。'],
    ];
    const older = await importTurns(client.user.id, turns, 'older');
    const newer = await importTurns(client.user.id, turns, 'newer');
    await waitFor(async () => (await jobStates(client.user.id)).done === 18);
    await getSql()`update jobs set status = 'pending', attempts = 0 where user_id = ${client.user.id}`;

    // Unbounded, the twelve oldest: the older conversation's three replies and the first of the newer.
    const oldest = await claimDueJobs({ userId: client.user.id }, { leaseSeconds: 15, maxAttempts: 5 }, 12);
    expect(oldest.filter((job) => job.conversationId === newer)).toHaveLength(3);
    await getSql()`update jobs set status = 'pending', attempts = 0 where user_id = ${client.user.id}`;
    // Bounded to the conversations of the three oldest: the older one's, all of them.
    const stretch = await claimDueJobs({ userId: client.user.id }, { leaseSeconds: 15, maxAttempts: 5 }, 12, 3);
    expect(stretch).toHaveLength(9);
    expect(new Set(stretch.map((job) => job.conversationId))).toEqual(new Set([older]));
  });

  it('runs different conversations’ jobs side by side; one conversation’s in order, a backlog of replies a kind at a time', async () => {
    setEnv({ WORKER_CONCURRENCY: '3' });
    try {
      const client = await newClient();
      const first = await importTurns(
        client.user.id,
        [
          ['I play the oboe.', 'Nice.'],
          ['I also sail.', 'Fun.'],
        ],
        'first',
      );
      const second = await importTurns(client.user.id, [['My cat is called Pim.', 'Cute.']], 'second');
      await waitFor(async () => (await jobStates(client.user.id)).done === 9);
      await getSql()`update jobs set status = 'pending', attempts = 0 where user_id = ${client.user.id}`;

      // Each job, or batch of one kind's jobs, takes 60 ms and notes when it ran.
      const runs: Array<{ conversationId: string; kind: string; messageIds: string[]; start: number; end: number }> = [];
      const note = async (jobs: Array<{ conversationId: string; kind: string; messageId: string }>) => {
        const start = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 60));
        runs.push({
          conversationId: jobs[0].conversationId,
          kind: jobs[0].kind,
          messageIds: jobs.map((j) => j.messageId),
          start,
          end: performance.now(),
        });
      };
      for (const work of postTurnWork) {
        vi.spyOn(work, 'run').mockImplementation(({ job }) => note([job]));
        vi.spyOn(work, 'runMany').mockImplementation(async (jobs) => {
          await note(jobs);
          return new Map();
        });
      }
      expect(await runDueJobs({ userId: client.user.id })).toEqual({ done: 9, failed: 0 });

      const of = (conversationId: string) => runs.filter((run) => run.conversationId === conversationId).sort((a, b) => a.start - b.start);
      // One reply: its jobs one after another, in post-turn order.
      const inSecond = of(second);
      expect(inSecond.map((run) => run.kind)).toEqual(postTurnWork.map((work) => work.kind));
      for (let i = 1; i < inSecond.length; i++) expect(inSecond[i].start).toBeGreaterThanOrEqual(inSecond[i - 1].end);
      // Two replies of one conversation: each kind once, over both replies, older first.
      const replies = (await getSql()`select id from messages where conversation_id = ${first} and role = 'assistant' order by seq`).map(
        (row) => row.id,
      );
      const inFirst = of(first);
      expect(inFirst.map((run) => run.kind).sort()).toEqual(postTurnWork.map((work) => work.kind).sort());
      for (const run of inFirst) expect(run.messageIds).toEqual(replies);
      // Two conversations: their jobs overlap in time.
      expect(inSecond[0].start).toBeLessThan(inFirst[0].end);
    } finally {
      setEnv({ WORKER_CONCURRENCY: undefined });
    }
  });
});
