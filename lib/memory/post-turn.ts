import { after } from 'next/server';
import pLimit from 'p-limit';
import { ownerOf, type Scope } from '@/db/history';
import { claimDueJobs, completeJob, enqueueJobs, failJob, renewLease } from '@/db/jobs';
import type { Job } from '@/db/schema';
import { getConfig, type AppConfig } from '@/lib/config';
import { getModels, type Models } from '@/lib/llm';
import { logError } from '@/lib/log';
import { extractFacts } from './post-turn/extract-facts';
import { indexEpisode } from './post-turn/index-episode';
import { refreshSummary } from './post-turn/refresh-summary';
import { wakeWorker } from './worker-signal';

export type PostTurnContext = { job: Job; config: AppConfig; models: Models };
export type PostTurnWork = { kind: string; run: (context: PostTurnContext) => Promise<void> };

/** After each reply, in this order. Each is idempotent per assistant message and tracked as a job. */
export const postTurnWork: PostTurnWork[] = [indexEpisode, extractFacts, refreshSummary];

/**
 * A reply's post-turn jobs. Given the transaction that stores the reply's placeholder (or an
 * import's messages), they are committed with it: a crash can lose neither one without the other.
 */
export async function enqueuePostTurn(scope: Scope, assistantMessageId: string, executor?: Parameters<typeof enqueueJobs>[1]): Promise<void> {
  await enqueueJobs(
    postTurnWork.map((work) => ({ kind: work.kind, messageId: assistantMessageId, ...ownerOf(scope) })),
    executor,
  );
}

/**
 * Runs the due jobs matching the filter, renewing each one's lease while it runs; a failure is
 * recorded on its job and retried later. One conversation's jobs run one after another, in post-turn
 * order (a summary reads the episodes before it); different conversations' run side by side, up to
 * `concurrency` (WORKER_CONCURRENCY) at once, as most of a job's time is spent waiting for the memory model.
 */
export async function runDueJobs(
  filter: { messageId?: string; userId?: string },
  concurrency = getConfig().WORKER_CONCURRENCY,
): Promise<{ done: number; failed: number }> {
  const config = getConfig();
  const models = getModels();
  // A few replies' worth per conversation slot, so that a busy worker soon looks again.
  const claimed = await claimDueJobs(filter, config.JOB_LEASE_SECONDS, concurrency * postTurnWork.length * 2);
  // Enqueued in order (per reply, in post-turn order): that is the order to run them in.
  claimed.sort((a, b) => a.seq - b.seq);
  const byConversation = Map.groupBy(claimed, (job) => job.conversationId);
  const limit = pLimit(concurrency);
  const outcomes = await Promise.all(
    [...byConversation.values()].map((jobsInOrder) =>
      limit(async () => {
        const results: boolean[] = [];
        for (const job of jobsInOrder) results.push(await runJob(job, { config, models }));
        return results;
      }),
    ),
  );
  const done = outcomes.flat().filter(Boolean).length;
  return { done, failed: claimed.length - done };
}

/** One job, its lease renewed while it runs: true when it was done, false when it failed. */
async function runJob(job: Job, context: Omit<PostTurnContext, 'job'>): Promise<boolean> {
  const work = postTurnWork.find((w) => w.kind === job.kind);
  const heartbeat = setInterval(() => void renewLease(job.id).catch(() => {}), (context.config.JOB_LEASE_SECONDS * 1000) / 3);
  try {
    if (!work) throw new Error(`unknown job kind ${job.kind}`);
    await work.run({ job, ...context });
    await completeJob(job.id);
    return true;
  } catch (error) {
    await failJob(job, error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error));
    return false;
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * A reply has ended: its jobs (enqueued with its placeholder) are due now. The server's worker
 * runs them; without one (tests, scripts) they run after the response (Next's `after`), so they
 * never delay the reply, with the user's earlier failed jobs that are due.
 */
export function schedulePostTurn(scope: Scope, assistantMessageId: string): void {
  if (wakeWorker()) return;
  const work = async () => {
    await runDueJobs({ messageId: assistantMessageId });
    await runDueJobs({ userId: scope.userId });
  };
  const run = () => void work().catch((error) => logError('post-turn work failed', error));
  try {
    after(run);
  } catch {
    // Outside a Next request (tests, scripts): run on the next tick.
    setTimeout(run, 0);
  }
}
