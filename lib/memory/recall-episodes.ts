import { searchEpisodes } from '@/db/episodes';
import { searchKeywords } from './keywords';
import { recallTopK } from './fit-to-budget';
import type { ContextItem, Step } from './state';

/**
 * Earlier turns by meaning and by words. Turns of the recent window are not excluded here: the
 * budget decides which window messages are actually sent, and fit_to_budget drops the episodes of
 * those only (so a window message the budget drops is still reachable as an episode). The search
 * asks for that many more candidates.
 */
export const recallEpisodes: Step = {
  name: 'recall_episodes',
  async run({ config, models, scope, history, retrieval, queryEmbedding, candidates, runs, question, assistantMessageId }) {
    const topK = recallTopK(config, models.chatModelId, 'episodes');
    const windowTurns = history.filter((m) => m.role === 'assistant').length;
    const hits = await searchEpisodes({
      userId: scope.userId,
      conversationId: config.EPISODE_SCOPE === 'user' ? null : scope.conversationId,
      embedding: queryEmbedding,
      keywords: searchKeywords(retrieval.query),
      k: topK + windowTurns,
      minSimilarity: config.EPISODES_MIN_SIMILARITY,
      excludeMessageIds: [question.id, assistantMessageId],
    });
    const items: ContextItem[] = hits.map((hit, index) => ({
      key: `episode:${hit.id}`,
      kind: 'episode',
      block: 'episodes',
      text: hit.content.replace(/\s*\n\s*/gu, ' / '),
      sourceMessageIds: [hit.userMessageId, hit.assistantMessageId],
      score: hit.score,
      rank: index + 1,
      vectorRank: hit.vectorRank,
      lexicalRank: hit.lexicalRank,
      meta: { conversationId: hit.conversationId, at: hit.createdAt.toISOString() },
    }));
    return {
      candidates: [...candidates, ...items],
      runs: [
        ...runs,
        {
          kind: 'episodes',
          query: retrieval.query,
          topK: topK + windowTurns,
          candidates: hits.map((h) => ({ id: h.id, score: h.score, vectorRank: h.vectorRank, lexicalRank: h.lexicalRank })),
        },
      ],
    };
  },
};
