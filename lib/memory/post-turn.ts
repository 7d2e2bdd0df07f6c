import { after } from 'next/server';
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
 * Runs the due jobs matching the filter, in post-turn order, renewing each one's lease while it
 * runs; a failure is recorded on its job and retried later.
 */
export async function runDueJobs(filter: { messageId?: string; userId?: string }): Promise<{ done: number; failed: number }> {
  const config = getConfig();
  const models = getModels();
  const claimed = await claimDueJobs(filter, config.JOB_LEASE_SECONDS);
  const order = (job: Job) => postTurnWork.findIndex((w) => w.kind === job.kind);
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || order(a) - order(b));
  let done = 0;
  let failed = 0;
  for (const job of claimed) {
    const work = postTurnWork.find((w) => w.kind === job.kind);
    const heartbeat = setInterval(() => void renewLease(job.id).catch(() => {}), (config.JOB_LEASE_SECONDS * 1000) / 3);
    try {
      if (!work) throw new Error(`unknown job kind ${job.kind}`);
      await work.run({ job, config, models });
      await completeJob(job.id);
      done++;
    } catch (error) {
      failed++;
      await failJob(job, error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error));
    } finally {
      clearInterval(heartbeat);
    }
  }
  return { done, failed };
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
