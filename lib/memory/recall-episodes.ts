import { searchEpisodes } from '@/db/episodes';
import { searchKeywords } from './keywords';
import { recallTopK } from './fit-to-budget';
import type { ContextItem, Step } from './state';

/** Earlier turns by meaning and by words, minus the turns already in the recent window (by message id). */
export const recallEpisodes: Step = {
  name: 'recall_episodes',
  async run({ config, models, scope, history, retrieval, queryEmbedding, candidates, runs, question }) {
    const topK = recallTopK(config, models.chatModelId, 'episodes');
    const hits = await searchEpisodes({
      userId: scope.userId,
      conversationId: config.EPISODE_SCOPE === 'user' ? null : scope.conversationId,
      embedding: queryEmbedding,
      keywords: searchKeywords(retrieval.query),
      k: topK,
      minSimilarity: config.EPISODES_MIN_SIMILARITY,
      excludeMessageIds: [...history.map((m) => m.id), question.id],
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
          topK,
          candidates: hits.map((h) => ({ id: h.id, score: h.score, vectorRank: h.vectorRank, lexicalRank: h.lexicalRank })),
        },
      ],
    };
  },
};
