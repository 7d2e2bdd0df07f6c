import { afterEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { getSql } from '@/db/client';
import { claimDueJobs, renewLease } from '@/db/jobs';
import { startWorker, type Worker } from '@/lib/memory/worker';
import { newClient, readUntil, setEnv, waitFor } from './support/app';
import { activeFacts, importTurns } from './support/memory';

const jobStates = async (userId: string) =>
  (await getSql()`select status, count(*)::int as n from jobs where user_id = ${userId} group by status`).reduce<Record<string, number>>(
    (all, row) => ({ ...all, [row.status]: row.n }),
    {},
  );

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  setEnv({ JOB_LEASE_SECONDS: undefined });
});

describe('the post-turn worker', () => {
  it('enqueues a turn’s jobs with its placeholder; they wait while the reply is written, then run', async () => {
    setEnv({ OFFLINE_STREAM_DELAY_MS: '40' });
    try {
      const client = await newClient();
      const conversationId = await importTurns(client.user.id, [['Hello there.', 'Hi.']]);
      await waitFor(async () => (await jobStates(client.user.id)).done === 3);
      const response = await chat(client.request('/api/chat', { body: { conversationId, message: { text: 'My name is Orla Quenby and I restore old clocks.' } } }));
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      const started = await readUntil(reader, (text) => text.includes('"type":"text-delta"'));
      const replyId = /"messageId":"([0-9a-f-]{36})"/u.exec(started)![1];
      // Mid-stream: the jobs exist already, and no worker may take them yet.
      const [{ n: queued }] = await getSql()`select count(*)::int as n from jobs where message_id = ${replyId} and status = 'pending'`;
      expect(queued).toBe(3);
      expect(await claimDueJobs({ messageId: replyId }, 15)).toEqual([]);
      for (let next = await reader.read(); !next.done; next = await reader.read());
      await waitFor(async () => (await jobStates(client.user.id)).done === 6, 15_000);
      expect((await activeFacts(client.user.id)).join(' ')).toContain('Orla Quenby');
    } finally {
      setEnv({ OFFLINE_STREAM_DELAY_MS: '0' });
    }
  });

  it('drains due jobs when it starts, and takes back a job whose worker died once its lease lapses', async () => {
    setEnv({ JOB_LEASE_SECONDS: '2' });
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['I keep bees on the roof of my flat in Porto.', 'Lovely.']]);
    await waitFor(async () => (await jobStates(client.user.id)).done === 3);
    // As a crash leaves them: one job claimed by a process that died, the others never run.
    const [reply] = await getSql()`select id from messages where conversation_id = ${conversationId} and role = 'assistant'`;
    await getSql()`delete from facts where user_id = ${client.user.id}`;
    await getSql()`update jobs set status = 'running', updated_at = now() where message_id = ${reply.id} and kind = 'extract_facts'`;
    await getSql()`update jobs set status = 'pending' where message_id = ${reply.id} and kind <> 'extract_facts'`;

    const started = Date.now();
    // (Only this user's jobs: the suite's other files share the database.)
    worker = startWorker({ pollMs: 100, onlyUserId: client.user.id });
    await waitFor(async () => (await jobStates(client.user.id)).done === 2, 5_000);
    expect((await jobStates(client.user.id)).running).toBe(1); // its lease still holds
    await waitFor(async () => (await jobStates(client.user.id)).done === 3, 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect((await activeFacts(client.user.id)).join(' ')).toMatch(/bees|Porto/u);
  });

  it('a renewed lease keeps a running job from being claimed twice', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['Just saying hello.', 'Hello!']]);
    const [reply] = await getSql()`select id from messages where conversation_id = ${conversationId} and role = 'assistant'`;
    await waitFor(async () => (await jobStates(client.user.id)).done === 3);
    const [job] = await getSql()`update jobs set status = 'running', updated_at = now() - interval '10 seconds' where message_id = ${reply.id} and kind = 'index_episode' returning id`;
    await renewLease(job.id);
    expect(await claimDueJobs({ messageId: reply.id }, 5)).toEqual([]);
    await getSql()`update jobs set updated_at = now() - interval '10 seconds' where id = ${job.id}`;
    expect((await claimDueJobs({ messageId: reply.id }, 5)).map((j) => j.id)).toEqual([job.id]);
  });
});
