import { type EpisodeHit, type EpisodeQuery, searchEpisodesAtOnce } from '@/db/episodes';
import type { LexicalQuery } from '@/db/search-vector';
import { searchKeywords } from '../keywords';
import { recallTopK } from './budget-policy';
import type { EpisodeItem, Ranking } from './context-item';
import { decomposeQuery, namesNotIn, withoutHedges } from './decompose-query';
import { fuseRankings } from './fuse-rankings';
import { step, type TurnState } from './state';
import { readTimeQuestion, type TimeQuestion } from './time-question';

/**
 * Earlier turns by meaning and by words. EPISODE_SCOPE says from where:
 *   conversation  the current conversation only;
 *   user          every conversation of the user, ranked together;
 *   related       (default) one search over every conversation of the user, whose hits in the
 *                 current conversation come first; those of other conversations must clear a
 *                 stricter bar (relevantElsewhere), so that what the user said elsewhere stays
 *                 findable without unrelated chatter flooding the context; in a new conversation
 *                 the best few (EPISODES_NEW_CONVERSATION_BEST) come along regardless.
 * Every search of a turn (the question, the period it names, each clause) goes in one statement.
 * Turns of the recent window are not excluded here: the budget decides which window messages are
 * actually sent, and fit_to_budget drops the episodes of those only (so a window message the budget
 * drops is still reachable as an episode). The search asks for that many more candidates.
 */
type Reads = 'config' | 'models' | 'scope' | 'retrieval' | 'queryEmbedding' | 'question' | 'assistantMessageId' | 'history' | 'now';

export const recallEpisodes = step({
  name: 'recall_episodes',
  reads: ['config', 'models', 'scope', 'retrieval', 'queryEmbedding', 'question', 'assistantMessageId', 'history', 'now'] satisfies Reads[],
  writes: ['episodesTopK'],
  appends: ['candidates', 'runs'],
  async run(state) {
    const { config, models, retrieval } = state;
    const topK = recallTopK(config, models.chatModelId, 'episodes', state.history.length === 0);
    const k = topK + state.history.filter((m) => m.role === 'assistant').length;
    const keywords = searchKeywords(withoutHedges(retrieval.query));
    const time = readTimeQuestion(retrieval.query, state.now);
    const parts = decomposeQuery(retrieval.query);
    const whole = { keywords, embedding: state.queryEmbedding };
    // The question as a whole; the period it names; each of its clauses by their words alone.
    const lists = await searchAll(state, k, [
      { terms: whole },
      ...(time.period ? [{ terms: whole, saidBetween: time.period }] : []),
      ...parts.clauses.map((clause) => ({ terms: { keywords: searchKeywords(clause), embedding: [] } })),
    ]);
    let fused = lists.length > 1 ? fuseRankings(lists.map((hits) => ({ hits, weight: 1 }))) : lists[0];
    // A join: the names its best matches bring are searched next (the second hop).
    const names = parts.joins ? [...new Set(fused.slice(0, BRIDGE_FROM).flatMap((hit) => namesNotIn(hit.content, retrieval.query)))] : [];
    if (names.length > 0) {
      const [bridged] = await searchAll(state, k, [{ terms: { keywords: searchKeywords(names.join(' ')), embedding: [] } }]);
      fused = fuseRankings([
        { hits: fused, weight: 1 },
        { hits: bridged, weight: 1 },
      ]);
    }
    fused = fused.slice(0, k);
    // An episode without text waits for its re-index after a correction: nothing to recall yet.
    const hits = inTimeOrder(fused, time.order).filter((hit) => hit.content !== '');
    const items = hits.map((hit, index) =>
      episodeItem(hit, { score: hit.score, rank: index + 1, vectorRank: hit.vectorRank, lexicalRank: hit.lexicalRank }),
    );
    return {
      candidates: items,
      episodesTopK: topK,
      runs: [
        {
          kind: 'episodes' as const,
          query: retrieval.query,
          topK: k,
          candidates: hits.map((h) => ({ id: h.id, score: h.score, vectorRank: h.vectorRank, lexicalRank: h.lexicalRank })),
        },
      ],
    };
  },
});

type EpisodeRow = Pick<EpisodeHit, 'id' | 'content' | 'conversationId' | 'userMessageId' | 'assistantMessageId' | 'createdAt'>;

/**
 * An earlier exchange as a memory item: its date first (when it was said, so questions about when
 * find their answer in the line), then its messages on one line.
 */
export function episodeItem(hit: EpisodeRow, found: Ranking, neighbour?: Pick<EpisodeItem['meta'], 'neighbourOf' | 'side'>): EpisodeItem {
  return {
    ...found,
    key: `episode:${hit.id}`,
    kind: 'episode',
    block: 'episodes',
    text: `(${hit.createdAt.toISOString().slice(0, 10)}) ${hit.content.replace(/(?<!\s)[^\S\n]*\n\s*/gu, ' / ')}`,
    sourceMessageIds: [hit.userMessageId, hit.assistantMessageId],
    meta: { conversationId: hit.conversationId, at: hit.createdAt.toISOString(), ...neighbour },
  };
}

/**
 * "The first time…", "the last time…": of the exchanges that share the question's words, the
 * earliest (or latest) comes first; those found by meaning alone keep their place after them.
 */
function inTimeOrder(hits: EpisodeHit[], order: TimeQuestion['order']): EpisodeHit[] {
  if (order === null) return hits;
  const byWords = hits.filter((hit) => hit.lexicalRank !== null);
  const sign = order === 'earliest' ? 1 : -1;
  return [
    ...byWords.toSorted((a, b) => sign * (a.createdAt.getTime() - b.createdAt.getTime())),
    ...hits.filter((hit) => hit.lexicalRank === null),
  ];
}

/** What one search looks for: words, and a vector (none: by words alone). */
type Terms = { keywords: LexicalQuery; embedding: number[] };

/** How many of the best matches of a join are read for names to search next. */
const BRIDGE_FROM = 3;

/** One search of a turn: its terms, and the period it is limited to. */
type Search = { terms: Terms; saidBetween?: { from: Date; to: Date } };

/**
 * The searches of a turn in one statement, each over the conversations EPISODE_SCOPE names. Under
 * `related` each is one search of every conversation, whose hits here come first and whose hits
 * elsewhere are kept only when they clear the stricter bar (in a new conversation its best few
 * regardless).
 */
async function searchAll(state: Pick<TurnState, Reads>, k: number, searches: Search[]): Promise<EpisodeHit[][]> {
  const { config, scope: turnScope, question, assistantMessageId } = state;
  const scope = config.EPISODE_SCOPE;
  const best = scope === 'related' && state.history.length === 0 ? config.EPISODES_NEW_CONVERSATION_BEST : 0;
  const query = ({ terms, saidBetween }: Search): EpisodeQuery => ({
    userId: turnScope.userId,
    conversationId: scope === 'conversation' ? turnScope.conversationId : null,
    embedding: terms.embedding,
    keywords: terms.keywords,
    k,
    // A new conversation's best few come along below the bars too (the inspector shows their scores).
    minSimilarity: best > 0 ? -1 : config.EPISODES_MIN_SIMILARITY,
    excludeMessageIds: [question.id, assistantMessageId],
    saidBetween,
  });
  const lists = await searchEpisodesAtOnce(searches.map(query));
  if (scope !== 'related') return lists;
  return lists.map((hits) => {
    const here = hits.filter((hit) => hit.conversationId === turnScope.conversationId);
    const elsewhere = hits
      .filter((hit) => hit.conversationId !== turnScope.conversationId)
      .filter((hit, rank) => rank < best || relevantElsewhere(hit, config.EPISODES_OTHER_MIN_SIMILARITY, config.EPISODES_MIN_SIMILARITY));
    // The budget keeps them in this order: the current conversation's turns first.
    return [...here, ...elsewhere];
  });
}

/**
 * The bar for a turn of another conversation: as close in meaning as EPISODES_OTHER_MIN_SIMILARITY,
 * or sharing at least two of the query's words (one when the query has only one). A single common
 * word ("weekend", "work") is how unrelated chatter matches, so it is not enough on its own. Shared
 * words are counted by the search (the query's lexemes the row holds) rather than read from its
 * lexical score, whose scale depends on the index.
 */
export function relevantElsewhere(
  hit: Pick<EpisodeHit, 'vectorScore' | 'lexicalRank' | 'sharedLexemes' | 'queryLexemes'>,
  minSimilarity: number,
  floor: number,
): boolean {
  if (hit.vectorScore !== null && hit.vectorScore >= minSimilarity) return true;
  // Found by meaning alone below EPISODES_MIN_SIMILARITY (the search let it through for the best few): no.
  if (hit.lexicalRank === null && (hit.vectorScore ?? -1) < floor) return false;
  return hit.sharedLexemes > 0 && hit.sharedLexemes >= Math.min(2, hit.queryLexemes);
}
