import { type FactHit, searchFacts } from '@/db/facts';
import { searchKeywords } from '../keywords';
import { recallTopK } from './budget-policy';
import type { FactItem } from './context-item';
import { withoutHedges } from './decompose-query';
import { step } from './state';

/** The user's active facts (user scope, across conversations), by hybrid search on the retrieval query. */
export const recallFacts = step({
  name: 'recall_facts',
  reads: ['config', 'models', 'scope', 'history', 'retrieval', 'queryEmbedding'],
  writes: [],
  appends: ['candidates', 'runs'],
  async run({ config, models, scope, history, retrieval, queryEmbedding }) {
    const topK = recallTopK(config, models.chatModelId, 'facts');
    const run = { kind: 'facts' as const, query: retrieval.query, topK };
    // Option (off by default): a conversation whose whole history is in the window needs no facts.
    if (config.FACTS_SKIP_WHEN_HISTORY_FITS && history.length < config.HISTORY_WINDOW) {
      return { runs: [{ ...run, skipped: 'the recent window holds the whole conversation', candidates: [] }] };
    }
    const hits = await searchFacts({
      userId: scope.userId,
      embedding: queryEmbedding,
      keywords: searchKeywords(withoutHedges(retrieval.query)),
      k: topK,
      excludeConversationId: config.FACTS_EXCLUDE_CURRENT_CONVERSATION ? scope.conversationId : undefined,
    });
    // A fact that shares no word with the question and is not close to it in meaning is still sent
    // when there is room (a diet matters to "suggest a dinner"), but after everything else: it must
    // not take the room of earlier turns that answer (fit_to_budget).
    const related = (hit: FactHit) => hit.lexicalRank !== null || (hit.vectorScore ?? -1) >= config.FACTS_MIN_SIMILARITY;
    const items: FactItem[] = hits.map((hit, index) => ({
      key: `fact:${hit.fact.id}`,
      kind: 'fact',
      block: 'facts',
      text: factLine(hit),
      sourceMessageIds: [...new Set(hit.sources.map((s) => s.messageId))],
      score: hit.score,
      rank: index + 1,
      vectorRank: hit.vectorRank,
      lexicalRank: hit.lexicalRank,
      meta: {
        related: related(hit),
        factId: hit.fact.id,
        slot: hit.fact.slot,
        conversationId: hit.fact.conversationId,
        content: hit.fact.content,
      },
    }));
    return {
      candidates: items,
      runs: [
        { ...run, candidates: hits.map((h) => ({ id: h.fact.id, score: h.score, vectorRank: h.vectorRank, lexicalRank: h.lexicalRank })) },
      ],
    };
  },
});

/** "I prefer tea (like, current since 2026-11-22; replaces an earlier like)": which statement is current, and why; "I grew up in Tromsø (about the past, told 2026-11-22)". */
function factLine(hit: FactHit): string {
  const { fact } = hit;
  const since = fact.validFrom.toISOString().slice(0, 10);
  const notes = [
    // A past or origin fact is not the user's current state: it says when it was told, not "current".
    fact.slot === 'past' ? `about the past, told ${since}` : `${fact.slot === 'statement' ? '' : `${fact.slot}, `}current since ${since}`,
    ...(hit.replaces ? [`replaces an earlier ${fact.slot === 'statement' ? 'statement' : fact.slot}`] : []),
  ];
  return `${fact.content} (${notes.join('; ')})`;
}
