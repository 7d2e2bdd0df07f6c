import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { getDb } from './client';
import { jobs, type Job } from './schema';

export const MAX_JOB_ATTEMPTS = 5;

/** One job per (kind, assistant message): enqueueing twice is a no-op. */
export async function enqueueJobs(
  rows: Array<{ kind: string; messageId: string; userId: string; conversationId: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  await getDb().insert(jobs).values(rows).onConflictDoNothing({ target: [jobs.kind, jobs.messageId] });
}

/**
 * Claims due jobs (pending, or failed with attempts left and past their back-off) for this worker.
 * `running` jobs older than five minutes belonged to a process that died and are claimed again.
 */
export async function claimDueJobs(filter: { messageId?: string; userId?: string }, limit = 20): Promise<Job[]> {
  const due = or(
    and(eq(jobs.status, 'pending'), lte(jobs.runAfter, sql`now()`)),
    and(eq(jobs.status, 'failed'), sql`${jobs.attempts} < ${MAX_JOB_ATTEMPTS}`, lte(jobs.runAfter, sql`now()`)),
    and(eq(jobs.status, 'running'), sql`${jobs.updatedAt} < now() - interval '5 minutes'`),
  );
  const candidates = getDb()
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        due,
        filter.messageId ? eq(jobs.messageId, filter.messageId) : undefined,
        filter.userId ? eq(jobs.userId, filter.userId) : undefined,
      ),
    )
    .orderBy(jobs.createdAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return getDb()
    .update(jobs)
    .set({ status: 'running', attempts: sql`${jobs.attempts} + 1`, updatedAt: sql`now()` })
    .where(inArray(jobs.id, candidates))
    .returning();
}

export async function completeJob(id: string): Promise<void> {
  await getDb().update(jobs).set({ status: 'done', lastError: null, updatedAt: sql`now()` }).where(eq(jobs.id, id));
}

/** Failed jobs back off exponentially: 10, 20, 40, 80 seconds (a provider outage is rarely shorter). */
export async function failJob(job: Job, error: string): Promise<void> {
  await getDb()
    .update(jobs)
    .set({
      status: 'failed',
      lastError: error.slice(0, 2000),
      runAfter: sql`now() + make_interval(secs => ${10 * 2 ** (job.attempts - 1)})`,
      updatedAt: sql`now()`,
    })
    .where(eq(jobs.id, job.id));
}

export async function jobsForMessage(userId: string, messageId: string): Promise<Job[]> {
  return getDb()
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, userId), eq(jobs.messageId, messageId)));
}

/** Runs a reply's post-turn work again (after a Retry rewrote it, or a re-index that failed). */
export async function resetJobs(userId: string, messageId: string, kind?: string): Promise<void> {
  await getDb()
    .update(jobs)
    .set({ status: 'pending', attempts: 0, lastError: null, runAfter: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(jobs.userId, userId), eq(jobs.messageId, messageId), kind ? eq(jobs.kind, kind) : undefined));
}
