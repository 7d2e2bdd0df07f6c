import { listAudit } from '@/db/audit';
import { episodeSearch } from '@/db/episodes';
import { factSearch, getFact, getFactHistory } from '@/db/facts';
import { type RowStanding, rowStanding } from '@/db/hybrid-search';
import { getEpisodeListing } from '@/db/memory-page';
import type { LexicalQuery } from '@/db/search-vector';
import { listSummaryVersions } from '@/db/summaries';
import { getTurnRecords } from '@/db/turns';
import { getConfig } from '@/lib/config';
import { DomainError, notFound } from '@/lib/errors';
import { getModels } from '@/lib/llm';
import { whyNoRecord } from '@/lib/turn-context';
import { labelForOwner } from '../actors';
import { embedTexts } from '../embed';
import { searchKeywords } from '../keywords';
import { relevantElsewhere } from './recall-episodes';
import type { TurnRecord } from './turn-record';

/**
 * Why a memory item was, or was not, in the context of a reply: the turn record says what was
 * recalled and what the budget did; for anything else, the item is looked up (learned after the
 * reply? corrected?) and scored against the reply's retrieval query by the very searches recall runs
 * (db/hybrid-search.ts `rowStanding`), among the rows that existed then, with the top-k and bars the
 * turn used. Memory that changed since (edits, other items removed) can make today's scores differ
 * from the turn's; `changed_since` says when the search would find it now.
 */

export type ItemRef = { kind: 'fact' | 'episode' | 'summary'; id: string };

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ITEM_KEY = new RegExp(`^(fact|episode|summary):(${UUID})(?:@v\\d+)?$`, 'iu');

/** `fact:<id>`, `episode:<id>`, `summary:<conversation id>` (a version suffix is allowed and ignored). */
function parseItemKey(key: string): ItemRef | undefined {
  const match = ITEM_KEY.exec(key.trim());
  return match ? { kind: match[1].toLowerCase() as ItemRef['kind'], id: match[2].toLowerCase() } : undefined;
}

type Verdict =
  | 'sent'
  | 'in_window'
  | 'cut_by_budget'
  | 'learned_later'
  | 'corrected'
  | 'not_searched'
  | 'not_similar_enough'
  | 'ranked_below'
  | 'changed_since';

type Search = {
  /** Which recall search: the user's facts, this conversation's exchanges, or the user's other conversations'. */
  name: 'facts' | 'this_conversation' | 'other_conversations';
  /** How many items it asked for. */
  topK: number;
  /** Found by meaning alone, an item had to be at least this similar. */
  minSimilarity: number;
  /** Other conversations' exchanges: the stricter bar (similar enough, or sharing enough query words). */
  otherMinSimilarity?: number;
  passedBar: boolean;
  standing: RowStanding;
};

type Correction = {
  action: 'deleted' | 'edited' | 'replaced' | 'forgotten' | 'cleared';
  at: string;
  by: string | null;
  reason: string | null;
};

export type WhyNotRecalled = {
  reply: { id: string; conversationId: string; at: string; query: string };
  item: { key: string; kind: ItemRef['kind']; text: string | null; conversationId: string | null; learnedAt: string | null };
  verdict: Verdict;
  /** Sent or cut: what the budget decided. */
  budget: { kept: boolean; tokens: number | null; reason: string | null; cited: boolean } | null;
  /** Corrected (before or after the reply). */
  correction: Correction | null;
  /** Why it was not searched, in words. */
  notSearched: string | null;
  searches: Search[];
  /** The query could not be embedded: the searches used words only. */
  wordsOnly: boolean;
};

type Stored = Pick<TurnRecord, 'conversationId' | 'question' | 'recalled' | 'runs' | 'cited'> & {
  retrieval: { query: string };
  budget: { decisions: Array<{ key: string; kept: boolean }> } | null;
};

export async function whyNotRecalled(userId: string, messageId: string, ref: ItemRef): Promise<WhyNotRecalled> {
  const [latest] = await getTurnRecords(userId, messageId);
  if (!latest) throw await whyNoRecord(userId, messageId, 'context');
  const record = latest.record as unknown as Stored;
  const at = new Date(latest.createdAt);
  const key = `${ref.kind}:${ref.id}`;
  const base = {
    reply: { id: messageId, conversationId: record.conversationId, at: at.toISOString(), query: record.retrieval.query },
    budget: null,
    correction: null,
    notSearched: null,
    searches: [],
    wordsOnly: false,
  };
  const recalled = record.recalled.find((item) => item.key === key || (ref.kind === 'summary' && item.key.startsWith(`${key}@`)));
  if (recalled) {
    // Sent as it was: whatever happened to it since is said beside.
    const correction = ref.kind === 'summary' ? null : await correctionSince(userId, ref, at);
    const inWindow =
      !recalled.kept && recalled.sourceMessageIds.length > 0 && recalled.sourceMessageIds.every((id) => sentRaw(record).has(id));
    return {
      ...base,
      correction,
      item: { key, kind: ref.kind, text: recalled.text, conversationId: null, learnedAt: null },
      verdict: recalled.kept ? 'sent' : inWindow ? 'in_window' : 'cut_by_budget',
      budget: { kept: recalled.kept, tokens: recalled.tokens, reason: recalled.reason, cited: record.cited.includes(recalled.key) },
    };
  }
  if (ref.kind === 'fact') return whyFact(userId, ref.id, record, at, base);
  if (ref.kind === 'episode') return whyEpisode(userId, ref.id, record, at, messageId, base);
  return whySummary(userId, ref.id, record, at, base);
}

/** The window messages the reply was sent as they are. */
const sentRaw = (record: Stored) =>
  new Set(
    (record.budget?.decisions ?? []).filter((d) => d.kept && d.key.startsWith('message:')).map((d) => d.key.slice('message:'.length)),
  );

/** What was done to a fact or an exchange after the reply: deleted, forgotten, replaced or edited (null: nothing). */
async function correctionSince(userId: string, ref: ItemRef, at: Date): Promise<Correction | null> {
  if (ref.kind === 'episode') return (await getEpisodeListing(userId, ref.id)) ? null : deletion(userId, 'episode', ref.id);
  const fact = await getFact(userId, ref.id);
  if (!fact) return deletion(userId, 'fact', ref.id);
  if (fact.status !== 'active')
    return {
      action: fact.status === 'superseded' ? 'replaced' : 'deleted',
      at: (fact.validTo ?? fact.updatedAt).toISOString(),
      by: null,
      reason: null,
    };
  const edit = (await getFactHistory(userId, ref.id)).filter((e) => e.event === 'EDIT' && e.createdAt > at).at(-1);
  return edit ? { action: 'edited', at: edit.createdAt.toISOString(), by: labelForOwner(edit.actor, userId), reason: null } : null;
}

type Base = Omit<WhyNotRecalled, 'item' | 'verdict'>;

async function whyFact(userId: string, id: string, record: Stored, at: Date, base: Base): Promise<WhyNotRecalled> {
  const fact = await getFact(userId, id);
  if (!fact) return gone(userId, 'fact', id, base);
  const item = {
    key: `fact:${id}`,
    kind: 'fact' as const,
    text: fact.content,
    conversationId: fact.conversationId,
    learnedAt: fact.createdAt.toISOString(),
  };
  if (fact.createdAt > at) return { ...base, item, verdict: 'learned_later' };
  const correction = await correctionSince(userId, { kind: 'fact', id }, at);
  if (fact.status !== 'active') return { ...base, item, verdict: 'corrected', correction };
  const run = record.runs.find((r) => r.kind === 'facts');
  if (!run || run.skipped)
    return { ...base, item, correction, verdict: 'not_searched', notSearched: run?.skipped ?? 'facts were not searched for this reply' };
  const config = getConfig();
  if (config.FACTS_EXCLUDE_CURRENT_CONVERSATION && fact.conversationId === record.conversationId) {
    return {
      ...base,
      item,
      correction,
      verdict: 'not_searched',
      notSearched: 'facts learned in this conversation are left out of its replies',
    };
  }
  const { embedding, keywords } = await queryOf(record.retrieval.query);
  const standing = await rowStanding(factSearch({ userId, embedding, keywords, k: run.topK }), id, at);
  const search: Search = { name: 'facts', topK: run.topK, minSimilarity: -1, passedBar: true, standing };
  return { ...base, item, correction, searches: [search], wordsOnly: embedding.length === 0, verdict: verdictOf([search]) };
}

async function whyEpisode(userId: string, id: string, record: Stored, at: Date, messageId: string, base: Base): Promise<WhyNotRecalled> {
  const episode = await getEpisodeListing(userId, id);
  if (!episode) return gone(userId, 'episode', id, base);
  const item = {
    key: `episode:${id}`,
    kind: 'episode' as const,
    text: episode.content,
    conversationId: episode.conversationId,
    learnedAt: episode.createdAt.toISOString(),
  };
  if (episode.assistantMessageId === messageId || episode.userMessageId === record.question.id) {
    return { ...base, item, verdict: 'not_searched', notSearched: 'this is the exchange of this reply itself' };
  }
  if (episode.createdAt > at) return { ...base, item, verdict: 'learned_later' };
  const window = sentRaw(record);
  if (window.has(episode.userMessageId) && window.has(episode.assistantMessageId)) return { ...base, item, verdict: 'in_window' };
  const run = record.runs.find((r) => r.kind === 'episodes');
  const config = getConfig();
  const here = episode.conversationId === record.conversationId;
  if (!run) return { ...base, item, verdict: 'not_searched', notSearched: 'remembered exchanges were not searched for this reply' };
  if (!here && config.EPISODE_SCOPE === 'conversation') {
    return {
      ...base,
      item,
      verdict: 'not_searched',
      notSearched: "only this conversation's exchanges are searched (EPISODE_SCOPE=conversation)",
    };
  }
  const { embedding, keywords } = await queryOf(record.retrieval.query);
  const query = { userId, embedding, keywords, k: run.topK, excludeMessageIds: [record.question.id, messageId] };
  const min = config.EPISODES_MIN_SIMILARITY;
  let search: Search;
  if (config.EPISODE_SCOPE !== 'related') {
    const standing = await rowStanding(
      episodeSearch({
        ...query,
        conversationId: config.EPISODE_SCOPE === 'conversation' ? record.conversationId : null,
        minSimilarity: min,
      }),
      id,
      at,
    );
    search = { name: here ? 'this_conversation' : 'other_conversations', topK: run.topK, minSimilarity: min, passedBar: true, standing };
  } else {
    // One search of every conversation; another conversation's turns must clear a stricter bar,
    // except the best few of a new conversation's.
    const fresh = !(record.budget?.decisions ?? []).some((d) => d.key.startsWith('message:'));
    const best = fresh ? config.EPISODES_NEW_CONVERSATION_BEST : 0;
    const standing = await rowStanding(episodeSearch({ ...query, conversationId: null, minSimilarity: best > 0 ? -1 : min }), id, at);
    const passedBar =
      here ||
      (standing.fusedRank !== null && standing.fusedRank <= best) ||
      relevantElsewhere(standing, config.EPISODES_OTHER_MIN_SIMILARITY, min);
    search = {
      name: here ? 'this_conversation' : 'other_conversations',
      topK: run.topK,
      minSimilarity: min,
      ...(here ? {} : { otherMinSimilarity: config.EPISODES_OTHER_MIN_SIMILARITY }),
      passedBar,
      standing,
    };
  }
  return { ...base, item, searches: [search], wordsOnly: embedding.length === 0, verdict: verdictOf([search]) };
}

async function whySummary(userId: string, conversationId: string, record: Stored, at: Date, base: Base): Promise<WhyNotRecalled> {
  const item = { key: `summary:${conversationId}`, kind: 'summary' as const, text: null, conversationId, learnedAt: null };
  if (conversationId !== record.conversationId) {
    return { ...base, item, verdict: 'not_searched', notSearched: "a reply is given its own conversation's summary only" };
  }
  const versions = (await listSummaryVersions({ userId, conversationId })).sort((a, b) => a.version - b.version);
  if (versions.length === 0) throw notFound('Summary of conversation', conversationId);
  const then = versions.filter((v) => v.createdAt <= at).at(-1);
  const now = versions.at(-1)!;
  const described = { ...item, text: now.after, learnedAt: versions[0].createdAt.toISOString() };
  if (!then) return { ...base, item: described, verdict: 'learned_later' };
  if (then.action === 'clear' || !then.after?.trim()) {
    return {
      ...base,
      item: described,
      verdict: 'corrected',
      correction: { action: 'cleared', at: then.createdAt.toISOString(), by: labelForOwner(then.actor, userId), reason: null },
    };
  }
  return {
    ...base,
    item: described,
    verdict: 'not_searched',
    notSearched: 'the summary then covered none of the messages before this reply',
  };
}

/** A fact or an exchange that no longer exists: deleted or forgotten, as the audit log tells; otherwise not the user's. */
async function gone(userId: string, kind: 'fact' | 'episode', id: string, base: Base): Promise<WhyNotRecalled> {
  const correction = await deletion(userId, kind, id);
  if (!correction) throw notFound(kind === 'fact' ? 'Fact' : 'Remembered exchange', id);
  return {
    ...base,
    item: { key: `${kind}:${id}`, kind, text: null, conversationId: null, learnedAt: null },
    verdict: 'corrected',
    correction,
  };
}

/** The audit entry of a fact's deletion or an exchange's forgetting, if the user's. */
async function deletion(userId: string, kind: 'fact' | 'episode', id: string): Promise<Correction | null> {
  const entries = await listAudit({ targetUserId: userId, objectType: kind, action: 'delete' }, 500);
  const entry = entries.find((e) => e.objectId === id);
  if (!entry) return null;
  return {
    action: kind === 'fact' ? 'deleted' : 'forgotten',
    at: new Date(entry.at).toISOString(),
    by: labelForOwner(entry.actor, userId),
    reason: entry.reason,
  };
}

async function queryOf(query: string): Promise<{ embedding: number[]; keywords: LexicalQuery }> {
  const keywords = searchKeywords(query);
  try {
    const [embedding] = await embedTexts(getModels(), [query]);
    return { embedding, keywords };
  } catch {
    return { embedding: [], keywords };
  }
}

/** The first search that explains the miss, or `changed_since` when each would find the item now. */
function verdictOf(searches: Search[]): Verdict {
  for (const { standing, passedBar, topK, minSimilarity } of searches) {
    if (!standing.inScope) throw new DomainError('not_found', 'The item is not among what this search covers.');
    const matchedWords = standing.lexicalRank !== null;
    const similarEnough = standing.vectorScore !== null && standing.vectorScore >= minSimilarity;
    if (!passedBar || (!matchedWords && !similarEnough)) return 'not_similar_enough';
    if (standing.fusedRank === null || standing.fusedRank > topK) return 'ranked_below';
  }
  return 'changed_since';
}

/** The `item` query parameter of the why routes, or a 400 naming the problem. */
export function itemParam(url: string): ItemRef {
  const value = new URL(url).searchParams.get('item');
  const ref = value === null ? undefined : parseItemKey(value);
  if (!ref) {
    throw new DomainError(
      'invalid_item',
      value === null
        ? 'item: missing; give fact:<id>, episode:<id> or summary:<conversation id>.'
        : 'item: must be fact:<id>, episode:<id> or summary:<conversation id>.',
    );
  }
  return ref;
}
