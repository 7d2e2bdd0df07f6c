import 'server-only';
import { and, desc, eq, inArray, lte, ne, or, sql } from 'drizzle-orm';
import { getDb } from './client';
import type { Executor } from './provenance';
import { imports, type Job, type JobKind, jobs, messages } from './schema';

export type NewJob = { kind: JobKind; messageId: string; userId: string; conversationId: string };

/**
 * One job per (kind, assistant message): enqueueing twice is a no-op. Always in the transaction of
 * the change that needs the jobs (or a statement of its own when the change is just this): a crash
 * can lose neither one without the other.
 */
export async function enqueueJobs(executor: Executor, rows: NewJob[]): Promise<void> {
  // In pieces, well under Postgres's limit of 65,535 parameters a statement (an import enqueues thousands).
  for (let i = 0; i < rows.length; i += 2000) await jobsInsert(rows.slice(i, i + 2000), executor);
}

/** The insert `enqueueJobs` runs, unrun: to be part of a larger statement (a turn's first write). */
export function jobsInsert(rows: NewJob[], executor: Executor = getDb()) {
  return executor
    .insert(jobs)
    .values(rows)
    .onConflictDoNothing({ target: [jobs.kind, jobs.messageId] });
}

/**
 * Which jobs to claim: a reply's, several replies' (an import's), a user's, or anyone's; of some
 * kinds only; only those due for at least `waitedMs` (a job is due from its enqueueing, with the
 * turn's start, or from its retry time), with leases lapsed at any age.
 */
export type JobFilter = { messageId?: string; messageIds?: string[]; userId?: string; kinds?: JobKind[]; waitedMs?: number };

/**
 * Claims due jobs for this worker: pending, or failed and past their back-off, or running under a
 * lease that lapsed (its worker died). A job waits while its reply is still being written: it is
 * enqueued with the reply's placeholder, but works on the finished text. Each claim is an attempt,
 * so a run cut off by a crash counts too: a due job that has had `maxAttempts` is not claimed but
 * becomes `dead`, and stays so until staff retry it. Oldest first; with `fromOldest`, only in the
 * conversations of that many oldest due jobs, so that a backlog is claimed a stretch of replies per
 * conversation rather than a reply in each of many.
 */
export async function claimDueJobs(
  filter: JobFilter,
  options: { leaseSeconds: number; maxAttempts: number },
  limit = 20,
  fromOldest?: number,
): Promise<Job[]> {
  const dueBy = filter.waitedMs ? sql`now() - make_interval(secs => ${filter.waitedMs / 1000})` : sql`now()`;
  const due = or(
    and(inArray(jobs.status, ['pending', 'failed']), lte(jobs.runAfter, dueBy)),
    and(eq(jobs.status, 'running'), sql`${jobs.updatedAt} < now() - make_interval(secs => ${options.leaseSeconds})`),
  );
  const replyWritten = sql`not exists (select 1 from ${messages} where ${messages.id} = ${jobs.messageId} and ${messages.status} = 'streaming')`;
  // An import runs its own conversation's jobs, batched and in order (lib/import.ts); others leave them be until it is done.
  const notImporting = sql`not exists (select 1 from ${imports} where ${imports.conversationId} = ${jobs.conversationId} and ${imports.status} in ('pending', 'running'))`;
  const claimable = and(
    due,
    replyWritten,
    filter.messageId ? eq(jobs.messageId, filter.messageId) : undefined,
    filter.userId ? eq(jobs.userId, filter.userId) : undefined,
    filter.kinds ? inArray(jobs.kind, filter.kinds) : undefined,
    // Through the message index: an import's claim reads its own jobs, not everyone's.
    filter.messageIds ? sql`${jobs.messageId} = any(${sql.param(filter.messageIds)}::uuid[])` : notImporting,
  );
  const inOldestConversations = fromOldest
    ? sql`${jobs.conversationId} in (select oldest.conversation_id from (select ${jobs.conversationId} as conversation_id from ${jobs} where ${claimable} order by ${jobs.seq} limit ${fromOldest}) oldest)`
    : undefined;
  const candidates = getDb()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(claimable, inOldestConversations))
    .orderBy(jobs.seq)
    .limit(limit)
    .for('update', { skipLocked: true });
  // One statement: a due job with attempts left is claimed, one without becomes dead (not returned).
  const spent = sql`${jobs.attempts} >= ${options.maxAttempts}`;
  const claimed = await getDb()
    .update(jobs)
    .set({
      status: sql`case when ${spent} then 'dead'::job_status else 'running'::job_status end`,
      attempts: sql`case when ${spent} then ${jobs.attempts} else ${jobs.attempts} + 1 end`,
      lastError: sql`case when ${spent} then coalesce(${jobs.lastError}, ${cutOff(options.maxAttempts)}) else ${jobs.lastError} end`,
      updatedAt: sql`now()`,
    })
    .where(inArray(jobs.id, candidates))
    .returning();
  return claimed.filter((job) => job.status === 'running');
}

/** Why a job or an import with no error of its own is dead: every attempt was cut off. */
export const cutOff = (attempts: number) =>
  `Stopped after ${attempts} attempts, each cut off before it ended (its process stopped, crashed or stalled).`;

/**
 * Jobs left `running` by a process that died, due again at once. Only for a database that this
 * process alone serves (the embedded one), where nobody else can be running them.
 */
export async function releaseOrphanedJobs(): Promise<number> {
  const rows = await getDb()
    .update(jobs)
    .set({ status: 'pending', updatedAt: sql`now()` })
    .where(eq(jobs.status, 'running'))
    .returning({ id: jobs.id });
  return rows.length;
}

/** Renews running jobs' lease (their worker is alive), in one statement however many. */
export async function renewLeases(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await getDb()
    .update(jobs)
    .set({ updatedAt: sql`now()` })
    .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running')));
}

/**
 * Of these running jobs, those still running as claimed, held until the caller's transaction ends: a
 * job a correction queued again meanwhile (its inputs changed) is not, and must not write what it
 * derived from the old inputs. The correction takes the job's row before what the job writes.
 */
export async function stillRunning(tx: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running')))
    .for('share');
  return new Set(rows.map((r) => r.id));
}

/** Jobs done; one queued again while it ran (its inputs changed meanwhile) stays due. */
export async function completeJobs(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await getDb()
    .update(jobs)
    .set({ status: 'done', lastError: null, updatedAt: sql`now()` })
    .where(and(inArray(jobs.id, ids), eq(jobs.status, 'running')));
}

/**
 * Failed jobs back off exponentially: 10, 20, 40, 80 seconds (a provider outage is rarely shorter);
 * the last attempt's failure makes the job `dead`. `error` is a summary of what failed (lib/log.ts
 * describeError), never a query or its parameters.
 */
export async function failJob(job: Job, error: string, maxAttempts: number): Promise<void> {
  await getDb()
    .update(jobs)
    .set({
      status: job.attempts >= maxAttempts ? 'dead' : 'failed',
      lastError: error.slice(0, 2000),
      runAfter: sql`now() + make_interval(secs => ${10 * 2 ** (job.attempts - 1)})`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running')));
}

/** What makes a job due now, as if new. */
const dueAgain = { status: 'pending', attempts: 0, lastError: null, runAfter: sql`now()`, updatedAt: sql`now()` } as const;

/** Runs a reply's post-turn work again (after a Retry rewrote it). */
export async function resetJobs(executor: Executor, userId: string, messageId: string, kind?: JobKind): Promise<void> {
  await executor
    .update(jobs)
    .set(dueAgain)
    .where(and(eq(jobs.userId, userId), eq(jobs.messageId, messageId), kind ? eq(jobs.kind, kind) : undefined));
}

/** Jobs due now, whether new or done before (their inputs changed: a correction). */
export async function requeueJobs(executor: Executor, rows: NewJob[]): Promise<void> {
  if (rows.length === 0) return;
  await executor
    .insert(jobs)
    .values(rows)
    .onConflictDoUpdate({ target: [jobs.kind, jobs.messageId], set: dueAgain });
}

/**
 * A job about a whole conversation, due now: keyed by its newest message that is not being written
 * (a job waits while its message streams). False when the conversation has no such message.
 */
export async function requeueConversationJob(
  executor: Executor,
  kind: JobKind,
  scope: { userId: string; conversationId: string },
): Promise<boolean> {
  const [newest] = await executor
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.userId, scope.userId), eq(messages.conversationId, scope.conversationId), ne(messages.status, 'streaming')))
    .orderBy(desc(messages.seq))
    .limit(1);
  if (!newest) return false;
  await requeueJobs(executor, [{ kind, messageId: newest.id, ...scope }]);
  return true;
}
