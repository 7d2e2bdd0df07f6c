import { after } from 'next/server';
import { ownerOf, type Scope } from '@/db/history';
import { claimDueJobs, completeJob, enqueueJobs, failJob } from '@/db/jobs';
import type { Job } from '@/db/schema';
import { getConfig, type AppConfig } from '@/lib/config';
import { getModels, type Models } from '@/lib/llm';
import { logError } from '@/lib/log';
import { extractFacts } from './post-turn/extract-facts';
import { indexEpisode } from './post-turn/index-episode';
import { refreshSummary } from './post-turn/refresh-summary';

export type PostTurnContext = { job: Job; config: AppConfig; models: Models };
export type PostTurnWork = { kind: string; run: (context: PostTurnContext) => Promise<void> };

/** After each reply, in this order. Each is idempotent per assistant message and tracked as a job. */
export const postTurnWork: PostTurnWork[] = [indexEpisode, extractFacts, refreshSummary];

export async function enqueuePostTurn(scope: Scope, assistantMessageId: string): Promise<void> {
  await enqueueJobs(postTurnWork.map((work) => ({ kind: work.kind, messageId: assistantMessageId, ...ownerOf(scope) })));
}

/** Runs the due jobs matching the filter, in post-turn order; a failure is recorded on its job and retried later. */
export async function runDueJobs(filter: { messageId?: string; userId?: string }): Promise<{ done: number; failed: number }> {
  const config = getConfig();
  const models = getModels();
  const claimed = await claimDueJobs(filter);
  const order = (job: Job) => postTurnWork.findIndex((w) => w.kind === job.kind);
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || order(a) - order(b));
  let done = 0;
  let failed = 0;
  for (const job of claimed) {
    const work = postTurnWork.find((w) => w.kind === job.kind);
    try {
      if (!work) throw new Error(`unknown job kind ${job.kind}`);
      await work.run({ job, config, models });
      await completeJob(job.id);
      done++;
    } catch (error) {
      failed++;
      await failJob(job, error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error));
    }
  }
  return { done, failed };
}

/**
 * Enqueues this reply's post-turn work and runs it after the response (Next's `after`), so it never
 * delays the reply; the user's earlier failed jobs that are due get another attempt with it.
 */
export async function schedulePostTurn(scope: Scope, assistantMessageId: string): Promise<void> {
  try {
    await enqueuePostTurn(scope, assistantMessageId);
  } catch (error) {
    logError('could not enqueue post-turn work', error);
    return;
  }
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
