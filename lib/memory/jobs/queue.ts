import { after } from 'next/server';
import pLimit from 'p-limit';
import { ownerOf, type Scope } from '@/db/history';
import { claimDueJobs, completeJobs, enqueueJobs, failJob, type JobFilter, renewLeases } from '@/db/jobs';
import type { Executor } from '@/db/provenance';
import type { Job } from '@/db/schema';
import { type AppConfig, getConfig } from '@/lib/config';
import { getModels } from '@/lib/llm';
import { describeError, logError } from '@/lib/log';
import { extractFacts } from './extract-facts';
import { indexEpisode } from './index-episode';
import { rebuildSummary, refreshSummary } from './refresh-summary';
import { loadTurns } from './turn-messages';
import type { JobWork, RunContext } from './work';
import { isAppServer, wakeWorker } from './worker-signal';

/** After each reply, in this order. Each is idempotent per assistant message and tracked as a job. */
export const postTurnWork: JobWork[] = [indexEpisode, extractFacts, refreshSummary];
/** Every kind of job the queue runs: the post-turn work, and what a correction queues (`index_episode` again, `rebuild_summary`). */
const jobWork: JobWork[] = [...postTurnWork, rebuildSummary];

/**
 * A reply's post-turn jobs, in the transaction that stores the reply's placeholder (or an import's
 * messages): a crash can lose neither one without the other.
 */
export async function enqueuePostTurn(tx: Executor, scope: Scope, assistantMessageId: string): Promise<void> {
  await enqueuePostTurns(tx, scope, [assistantMessageId]);
}

/** Many replies' jobs (an import's) in one statement, in reply order and post-turn order: the order they run in. */
export async function enqueuePostTurns(tx: Executor, scope: Scope, assistantMessageIds: string[]): Promise<void> {
  await enqueueJobs(
    tx,
    assistantMessageIds.flatMap((messageId) => postTurnWork.map((work) => ({ kind: work.kind, messageId, ...ownerOf(scope) }))),
  );
}

const claimOptions = (config: AppConfig) => ({ leaseSeconds: config.JOB_LEASE_SECONDS, maxAttempts: config.JOB_MAX_ATTEMPTS });

/** Replies' worth of jobs a worker slot claims per round: a backlog is run a stretch at a time, not reply by reply. */
const REPLIES_PER_SLOT = 8;

/**
 * Runs the due jobs matching the filter, renewing their leases while they run; a failure is
 * recorded on its job and retried later. One conversation's jobs run in order: one reply's one
 * after another, in post-turn order (a summary reads the episodes before it); a backlog of several
 * replies' (left while turns were live) batched as an import's, with the same results. Different
 * conversations' run side by side, up to `concurrency` (WORKER_CONCURRENCY) at once, as most of a
 * job's time is spent waiting for the memory model.
 */
export async function runDueJobs(
  filter: JobFilter,
  concurrency = getConfig().WORKER_CONCURRENCY,
): Promise<{ done: number; failed: number }> {
  const config = getConfig();
  const context = { config, models: getModels() };
  const perReply = postTurnWork.length;
  // About `concurrency` conversations (those of the oldest due replies), a stretch of replies each.
  const claimed = await claimDueJobs(filter, claimOptions(config), concurrency * perReply * REPLIES_PER_SLOT, concurrency * perReply);
  // Enqueued in order (per reply, in post-turn order): that is the order to run them in.
  claimed.sort((a, b) => a.seq - b.seq);
  const byConversation = Map.groupBy(claimed, (job) => job.conversationId);
  const limit = pLimit(concurrency);
  const failed = await whileLeased(claimed, config, () =>
    Promise.all([...byConversation.values()].map((jobsInOrder) => limit(() => runConversationJobs(jobsInOrder, context)))),
  );
  const failedCount = failed.reduce((sum, n) => sum + n, 0);
  return { done: claimed.length - failedCount, failed: failedCount };
}

/** One conversation's claimed jobs, in order; returns how many failed. */
async function runConversationJobs(jobs: Job[], context: RunContext): Promise<number> {
  const replyIds = [...new Set(jobs.map((job) => job.messageId))];
  if (replyIds.length === 1 || !jobs.every((job) => postTurnWork.some((work) => work.kind === job.kind))) {
    let failed = 0;
    for (const job of jobs) failed += (await runKind([job], context)).size;
    return failed;
  }
  const [{ userId, conversationId }] = jobs;
  const turns = await loadTurns({ userId, conversationId }, replyIds, 'memory');
  const replies = replyIds.map((id) => ({ id, questions: turns.get(id)?.original.map((question) => question.content) ?? [] }));
  return runInStretches(replies, jobs, context);
}

/**
 * An import's post-turn work, with the results of running it reply by reply: every job of these
 * replies (one conversation's, in order) claimed at once, then run a stretch at a time. One
 * heartbeat renews every lease; a job not done stays due and is retried like any other.
 */
export async function runImportedJobs(replies: Array<{ id: string; questions: string[] }>): Promise<{ done: number; failed: number }> {
  const config = getConfig();
  const context = { config, models: getModels() };
  const claimed = await claimDueJobs(
    { messageIds: replies.map((r) => r.id), kinds: postTurnWork.map((work) => work.kind) },
    claimOptions(config),
    replies.length * postTurnWork.length,
  );
  const failed = await whileLeased(claimed, config, () => runInStretches(replies, claimed, context));
  return { done: claimed.length - failed, failed };
}

/**
 * Several replies' post-turn jobs (one conversation's, in reply order) run kind by kind over a
 * stretch of replies, so that each kind's shared work is done once per stretch; the kinds with
 * `ownInputs` side by side, then the others in post-turn order. The kinds read nothing the others
 * write, except where one `isolates` a reply (a request to forget redacts what the others read):
 * that reply is a stretch of its own, so everything still runs in turn-by-turn order. Returns how
 * many failed.
 */
async function runInStretches(replies: Array<{ id: string; questions: string[] }>, jobs: Job[], context: RunContext): Promise<number> {
  const byReply = Map.groupBy(jobs, (job) => job.messageId);
  let failed = 0;
  for (const stretch of await stretchesOf(replies)) {
    failed += await runStretch(
      stretch.replies.flatMap((reply) => byReply.get(reply.id) ?? []),
      stretch.isolated,
      context,
    );
  }
  return failed;
}

/** A stretch's jobs, kind by kind (each kind's in reply order); returns how many failed. */
async function runStretch(jobs: Job[], isolated: boolean, context: RunContext): Promise<number> {
  const failedOfKind = async (work: JobWork) => {
    const ofKind = jobs.filter((job) => job.kind === work.kind);
    return ofKind.length > 0 ? (await runKind(ofKind, context)).size : 0;
  };
  const beside = isolated ? [] : postTurnWork.filter((work) => work.ownInputs);
  const failed = await Promise.all(beside.map(failedOfKind));
  for (const work of postTurnWork.filter((w) => !beside.includes(w))) failed.push(await failedOfKind(work));
  return failed.reduce((sum, n) => sum + n, 0);
}

/** Consecutive replies that may run kind by kind; a reply some work isolates stands alone. */
async function stretchesOf<T extends { questions: string[] }>(replies: T[]): Promise<Array<{ replies: T[]; isolated: boolean }>> {
  const stretches = [{ replies: [] as T[], isolated: false }];
  for (const reply of replies) {
    const isolating = await Promise.all(postTurnWork.map((work) => work.isolates?.(reply.questions) ?? false));
    if (isolating.includes(true)) stretches.push({ replies: [reply], isolated: true }, { replies: [], isolated: false });
    else stretches.at(-1)!.replies.push(reply);
  }
  return stretches.filter((stretch) => stretch.replies.length > 0);
}

/** Renews the leases of the claimed jobs that are still running while `work` runs. */
async function whileLeased<T>(jobs: Job[], config: AppConfig, work: () => Promise<T>): Promise<T> {
  const ids = jobs.map((job) => job.id);
  const heartbeat = setInterval(() => void renewLeases(ids).catch(() => {}), (config.JOB_LEASE_SECONDS * 1000) / 3);
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * Claimed jobs of one kind (one conversation's, in order): each is then marked done, or failed
 * with its error to be retried later. Returns the failures by job id.
 */
async function runKind(jobs: Job[], context: RunContext): Promise<Map<string, unknown>> {
  const failures = await runWork(
    jobWork.find((w) => w.kind === jobs[0].kind),
    jobs,
    context,
  );
  await completeJobs(jobs.filter((job) => !failures.has(job.id)).map((job) => job.id));
  for (const job of jobs) {
    const error = failures.get(job.id);
    if (failures.has(job.id)) await failJob(job, describeError(error), context.config.JOB_MAX_ATTEMPTS);
  }
  return failures;
}

async function runWork(work: JobWork | undefined, jobs: Job[], context: RunContext): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  try {
    if (!work) throw new Error(`unknown job kind ${jobs[0].kind}`);
    if (work.runMany && jobs.length > 1) return await work.runMany(jobs, context);
    for (const job of jobs) await work.run({ job, ...context }).catch((error: unknown) => failures.set(job.id, error));
  } catch (error) {
    for (const job of jobs) failures.set(job.id, error);
  }
  return failures;
}

/**
 * A reply has ended: its jobs (enqueued with its placeholder) are due now, then the user's other
 * due jobs (earlier failures, what a correction queued).
 */
export function schedulePostTurn(scope: Scope, assistantMessageId: string): void {
  runSoon([{ messageId: assistantMessageId }, { userId: scope.userId }]);
}

/** A correction queued re-derivation for a user: it runs now, outside the request. */
export function scheduleRederivation(userId: string): void {
  runSoon([{ userId }]);
}

/**
 * The server's worker runs due jobs. An app server whose worker runs in a process of its own
 * (RUN_WORKER=false, `npm run worker`) leaves them to it: running them here too would take the
 * CPU its chat turns need. Without a server (tests, scripts) they run after the response (Next's
 * `after`), so they never delay it: each filter's jobs until none is due, as a job may queue
 * others (a request to forget queues re-derivation).
 */
function runSoon(filters: JobFilter[]): void {
  if (wakeWorker() || isAppServer()) return;
  const work = async () => {
    for (const filter of filters) {
      for (let ran = await runDueJobs(filter); ran.done + ran.failed > 0; ) ran = await runDueJobs(filter);
    }
  };
  const run = () => void work().catch((error) => logError('post-turn work failed', error));
  try {
    after(run);
  } catch {
    // Outside a Next request (tests, scripts): run on the next tick.
    setTimeout(run, 0);
  }
}
