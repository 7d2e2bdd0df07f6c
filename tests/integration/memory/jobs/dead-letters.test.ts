import { afterEach, describe, expect, it, vi } from 'vitest';
import { POST as postImport } from '@/app/api/import/route';
import { POST as retryImport } from '@/app/api/staff/imports/[id]/retry/route';
import { POST as retryJob } from '@/app/api/staff/jobs/[id]/retry/route';
import { GET as staffJobs } from '@/app/api/staff/jobs/route';
import { getSql } from '@/db/client';
import { claimImport } from '@/db/imports';
import { claimDueJobs } from '@/db/jobs';
import { register } from '@/instrumentation';
import { runDueImports } from '@/lib/import-queue';
import { postTurnWork, runDueJobs } from '@/lib/memory/jobs/queue';
import { setWorkerWake, wakeWorker } from '@/lib/memory/jobs/worker-signal';
import { newClient, params, setEnv } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { importFinished, readImport } from '@/tests/support/imports';
import { importTurns, postTurnSettled } from '@/tests/support/memory';

// A job or an import that fails or stops its process every time must not run for ever: each claim
// is an attempt (a run cut off by a crash counts), and after JOB_MAX_ATTEMPTS it is dead, left for
// staff to retry. A claimer with a lease of 0 seconds plays the next worker after a crash: it sees
// the last claim's lease as lapsed, while the other files' workers (15 s) leave the row alone.

const N = 3;

afterEach(() => {
  vi.restoreAllMocks();
  setWorkerWake(undefined);
  setEnv({ JOB_MAX_ATTEMPTS: undefined, JOB_LEASE_SECONDS: undefined });
});

const jobRow = async (id: string) => (await getSql()`select status, attempts, last_error from jobs where id = ${id}`)[0];

/** A settled reply's index_episode job, made due again as new. */
async function freshJob(status: 'pending' | 'running') {
  const client = await newClient();
  await importTurns(client.user.id, [['I paint ceramic tiles at weekends.', 'Lovely.']]);
  await postTurnSettled(client.user.id);
  const [job] = await getSql()`
    update jobs set status = ${status}, attempts = 0, last_error = null, updated_at = now()
    where user_id = ${client.user.id} and kind = 'index_episode' returning id, message_id`;
  return { userId: client.user.id, id: job.id as string, messageId: job.message_id as string };
}

describe('jobs that fail again and again', () => {
  it('a job whose run throws every time ends dead after JOB_MAX_ATTEMPTS attempts and is not claimed again', async () => {
    setEnv({ JOB_MAX_ATTEMPTS: String(N) });
    const job = await freshJob('pending');
    vi.spyOn(postTurnWork.find((work) => work.kind === 'index_episode')!, 'run').mockRejectedValue(new Error('the embedder is down'));
    for (let attempt = 1; attempt <= N; attempt++) {
      // Past its back-off: due now.
      await getSql()`update jobs set run_after = now() where id = ${job.id}`;
      await runDueJobs({ messageId: job.messageId });
      expect(await jobRow(job.id)).toMatchObject({ status: attempt < N ? 'failed' : 'dead', attempts: attempt });
    }
    await getSql()`update jobs set run_after = now() where id = ${job.id}`;
    expect(await claimDueJobs({ messageId: job.messageId }, { leaseSeconds: 15, maxAttempts: N })).toEqual([]);
    expect(await jobRow(job.id)).toMatchObject({
      status: 'dead',
      attempts: N,
      last_error: expect.stringContaining('the embedder is down'),
    });

    // Staff see it among the dead, with its attempts and error, and bring it back: it runs and is done.
    const staff = await member({ staff: true });
    const listed = await (await staffJobs(staff.request(`/api/staff/jobs?status=dead&userId=${job.userId}`))).json();
    expect(listed.counts.dead).toBe(1);
    expect(listed.jobs).toEqual([expect.objectContaining({ id: job.id, status: 'dead', attempts: N, lastError: expect.any(String) })]);
    vi.restoreAllMocks();
    const retried = await retryJob(staff.request(`/api/staff/jobs/${job.id}/retry`, { method: 'POST' }), params({ id: job.id }));
    expect((await retried.json()).job).toMatchObject({ status: 'done', attempts: 1 });
    const [entry] = await getSql()`select before from audit_log where object_type = 'job' and object_id = ${job.id} and action = 'retry'`;
    expect(entry.before).toMatchObject({ status: 'dead', attempts: N });
  });

  it('a job left running by a crash mid-run JOB_MAX_ATTEMPTS times ends dead', async () => {
    const job = await freshJob('running');
    const options = { leaseSeconds: 0, maxAttempts: N };
    for (let crash = 1; crash <= N; crash++) {
      // The next worker takes it up; its process dies mid-run, leaving it running.
      const claimed = await claimDueJobs({ messageId: job.messageId }, options);
      expect(claimed.map((j) => [j.id, j.attempts])).toEqual([[job.id, crash]]);
    }
    expect(await claimDueJobs({ messageId: job.messageId }, options)).toEqual([]);
    expect(await jobRow(job.id)).toMatchObject({
      status: 'dead',
      attempts: N,
      last_error: expect.stringMatching(/^Stopped after 3 attempts/u),
    });
  });
});

describe('imports that stop again and again', () => {
  it('an import cut off by a crash JOB_MAX_ATTEMPTS times ends dead; staff list it and retry it, and it is done', async () => {
    setEnv({ JOB_MAX_ATTEMPTS: String(N), JOB_LEASE_SECONDS: '2' });
    // A worker runs here, so the request leaves the import to it; this test plays the workers.
    setWorkerWake(() => {});
    const alice = await newClient();
    const messages = [
      { role: 'user', content: 'I keep my tile glazes in a cold cellar.' },
      { role: 'assistant', content: 'Good idea.' },
    ];
    const { import: queued } = await (await postImport(alice.request('/api/import', { body: { title: 'Tiles', messages } }))).json();
    // The oldest due import, so that the claims below take this one and no other file's.
    await getSql()`update imports set created_at = '2000-01-01' where id = ${queued.id}`;
    for (let crash = 1; crash <= N; crash++) {
      expect(await claimImport({ leaseSeconds: 0, maxAttempts: N })).toMatchObject({ id: queued.id, status: 'running', attempts: crash });
    }
    // The next worker to look, once the lease has lapsed: the import is dead, not run.
    await getSql()`update imports set updated_at = now() - interval '1 hour' where id = ${queued.id}`;
    await runDueImports();
    const dead = await readImport(alice, queued.id);
    expect(dead).toMatchObject({ status: 'dead', messages: { stored: 0 }, error: expect.stringMatching(/^Stopped after 3 attempts/u) });
    // The user may send another meanwhile: a dead import holds no slot.
    expect(await getSql()`select 1 from imports where user_id = ${alice.user.id} and status in ('pending', 'running')`).toHaveLength(0);

    const staff = await member({ staff: true });
    const listed = await (await staffJobs(staff.request(`/api/staff/jobs?userId=${alice.user.id}`))).json();
    expect(listed.imports).toEqual([expect.objectContaining({ id: queued.id, status: 'dead', attempts: N, error: dead.error })]);
    expect(listed.imports[0]).not.toHaveProperty('payload');
    const retried = await retryImport(
      staff.request(`/api/staff/imports/${queued.id}/retry`, { method: 'POST' }),
      params({ id: queued.id }),
    );
    expect(retried.status).toBe(200);
    expect((await readImport(alice, queued.id)).status).toBe('pending');
    const [entry] =
      await getSql()`select before from audit_log where object_type = 'import' and object_id = ${queued.id} and action = 'retry'`;
    expect(entry.before).toMatchObject({ status: 'dead', attempts: N });
    await runDueImports();
    expect(await importFinished(alice, queued.id)).toMatchObject({ status: 'done', messages: { stored: 2 } });
    // Not dead any more: a second retry finds nothing to retry.
    const again = await retryImport(staff.request(`/api/staff/imports/${queued.id}/retry`, { method: 'POST' }), params({ id: queued.id }));
    expect(again.status).toBe(404);
  });
});

describe('start-up', () => {
  it('starts no job or import work before the server listens, whatever the queue holds', async () => {
    const alice = await newClient();
    // A dead import and one a crash left running (its lease still holding, so that no other file's worker takes it).
    const [dead, stuck] = await getSql()`
      insert into imports (user_id, status, payload, messages_total, replies_total, attempts)
      values (${alice.user.id}, 'dead', '[]', 0, 0, ${N}), (${alice.user.id}, 'running', '[]', 0, 0, 1)
      returning id`;
    const before = await getSql()`select id, status, attempts, updated_at from imports where user_id = ${alice.user.id} order by id`;
    setEnv({ NEXT_RUNTIME: 'nodejs', RUN_WORKER: 'true' });
    try {
      await register();
    } finally {
      setEnv({ NEXT_RUNTIME: undefined, RUN_WORKER: undefined });
    }
    // Registered, and no worker runs: it waits for the server to listen (scripts/server.ts).
    expect(wakeWorker()).toBe(false);
    expect(await getSql()`select id, status, attempts, updated_at from imports where user_id = ${alice.user.id} order by id`).toEqual(
      before,
    );
    expect(before.map((row) => row.id).sort()).toEqual([dead.id, stuck.id].sort());
    await getSql()`delete from imports where user_id = ${alice.user.id}`;
  });
});
