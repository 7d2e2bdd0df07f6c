import { getDb } from '@/db/client';
import { deleteEpisodeOf, episodeReplies } from '@/db/episodes';
import { resetJobs } from '@/db/jobs';
import { derivedFrom } from '@/db/provenance';
import type { Message } from '@/db/schema';
import { getSummary, messagesCoveredBySummary, writeSummary } from '@/db/summaries';
import { dropCachedRewrites } from '@/db/turns';
import { getConfig } from '@/lib/config';
import { getModels } from '@/lib/llm';
import { logError } from '@/lib/log';
import { indexTurn } from './post-turn/index-episode';
import { refreshSummaryOf } from './post-turn/refresh-summary';

/** What changed messages ask to derive again: their turns' episodes, replies' episodes, conversations' summaries. */
export type Rederivation = { reindex: string[]; replies?: string[]; rebuild: string[] };

/** The conversations whose current summary covers any of these messages. */
export async function summariesCovering(userId: string, messages: Array<Pick<Message, 'id' | 'conversationId'>>): Promise<string[]> {
  const byConversation = new Map<string, string[]>();
  for (const m of messages) byConversation.set(m.conversationId, [...(byConversation.get(m.conversationId) ?? []), m.id]);
  const out: string[] = [];
  for (const [conversationId, ids] of byConversation) {
    if ((await messagesCoveredBySummary({ userId, conversationId }, ids)).length > 0) out.push(conversationId);
  }
  return out;
}

/**
 * Derives again what came from changed messages: the episodes of their turns are re-indexed (or
 * dropped when nothing is left of the turn), the summaries of the given conversations rebuilt, and
 * the rewrite cache dropped. A failure never leaves the old text behind: an episode that cannot be
 * re-embedded is removed and queued again, a summary that cannot be rebuilt is emptied.
 */
export async function rederive(userId: string, work: Rederivation): Promise<void> {
  const config = getConfig();
  const models = getModels();
  const derived = await derivedFrom(getDb(), userId, work.reindex);
  const replies = new Set([...(work.replies ?? []), ...(await episodeReplies(userId, derived.episodeIds))]);
  for (const reply of replies) {
    try {
      await indexTurn(userId, reply, models);
    } catch (error) {
      logError('could not re-index an episode; removed until it is indexed again', error);
      await deleteEpisodeOf(userId, reply);
      await resetJobs(userId, reply, 'index_episode');
    }
  }
  for (const conversationId of new Set(work.rebuild)) {
    const scope = { userId, conversationId };
    try {
      await refreshSummaryOf(scope, null, config, models, true);
    } catch (error) {
      logError('could not rebuild a summary; emptied until the next refresh', error);
      const current = await getSummary(scope);
      if (current) {
        await writeSummary(
          scope,
          { content: '', coveredMessageCount: 0, coveredUntil: null, sourceMessageIds: [], actor: 'system', action: 'rebuild' },
          current.version,
        );
      }
    }
  }
  await dropCachedRewrites(userId);
}
