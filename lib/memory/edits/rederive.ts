import { blankEpisodesOf, episodeReplies } from '@/db/episodes';
import { getMessages, type Scope } from '@/db/history';
import { requeueConversationJob, requeueJobs } from '@/db/jobs';
import { derivedFrom, type Executor } from '@/db/provenance';
import type { Message } from '@/db/schema';
import { getSummary, messagesCoveredBySummary, writeSummary } from '@/db/summaries';
import { dropCachedRewrites } from '@/db/turns';

/** What changed messages ask to derive again: their turns' episodes, replies' episodes, conversations' summaries. */
export type Rederivation = { reindex: string[]; replies?: string[]; rebuild: string[] };

/** The conversations whose current summary covers any of these messages. */
export async function summariesCovering(
  tx: Executor,
  userId: string,
  messages: Array<Pick<Message, 'id' | 'conversationId'>>,
): Promise<string[]> {
  const byConversation = Map.groupBy(messages, (m) => m.conversationId);
  const out: string[] = [];
  for (const [conversationId, ofConversation] of byConversation) {
    const ids = ofConversation.map((m) => m.id);
    if ((await messagesCoveredBySummary({ userId, conversationId }, ids, tx)).length > 0) out.push(conversationId);
  }
  return out;
}

/**
 * Queues deriving again what came from changed messages, in the transaction of the change (a
 * crash loses neither): the episodes of their turns are indexed again (`index_episode`, which drops
 * an episode when nothing is left of its turn), the summaries of the given conversations rebuilt
 * (`rebuild_summary`). Until those jobs run, no read finds the old text: the episodes' text is taken
 * out (their ids stay) and the summaries emptied now, and the rewrite cache is dropped.
 * Nothing here calls a model, so a correction answers at once.
 */
export async function queueRederivation(tx: Executor, userId: string, work: Rederivation): Promise<void> {
  const derived = await derivedFrom(tx, userId, work.reindex);
  const replies = [...new Set([...(work.replies ?? []), ...(await episodeReplies(userId, derived.episodeIds, tx))])];
  // The jobs' rows before the episodes', the order a job writing an episode takes them in (db/episodes.ts putEpisodes).
  await requeueJobs(
    tx,
    (await getMessages(userId, replies, tx)).map((reply) => ({
      kind: 'index_episode',
      messageId: reply.id,
      userId,
      conversationId: reply.conversationId,
    })),
  );
  await blankEpisodesOf(tx, userId, replies);
  for (const conversationId of new Set(work.rebuild)) {
    const scope = { userId, conversationId };
    await emptySummary(tx, scope);
    await requeueConversationJob(tx, 'rebuild_summary', scope);
  }
  await dropCachedRewrites(userId, tx);
}

/** Empties a summary (a new version, the clear point kept) until it is rebuilt; one written meanwhile is emptied in turn. */
async function emptySummary(tx: Executor, scope: Scope): Promise<void> {
  for (;;) {
    const current = await getSummary(scope, tx);
    if (!current || current.content === '') return;
    const written = await writeSummary(
      scope,
      { content: '', coveredMessageCount: 0, coveredUntil: null, sourceMessageIds: [], actor: 'system', action: 'rebuild' },
      current.version,
      { executor: tx },
    );
    if (written) return;
  }
}
