import { episodeStates, factStates } from '@/db/replay';
import type { BlockName } from './budget';
import type { MemoryKind } from './context-item';
import { stripCitationMarkers } from './load-history';
import type { TurnRecord } from './turn-record';

/**
 * What a replay is compared by: a turn record summed up as the items it sent and left out, and the
 * difference between the record as stored and the context assembled again, with why each item came
 * or went.
 */

type TokensByBlock = Record<BlockName | 'required', number>;

/** One item that was sent. `rank` is its position among the kept items of its block (history: 1 = newest). */
type ReplayItem = {
  key: string;
  kind: MemoryKind;
  block: BlockName;
  text: string;
  rank: number;
  /** The number it is listed under in the system prompt ([n]); null for window messages. */
  n: number | null;
  tokens: number | null;
  role?: 'user' | 'assistant';
};

type DroppedItem = { key: string; block: BlockName; tokens: number | null; reason: string };

/** What one context held: the same shape for the stored record and the replay. */
export type ContextSummary = {
  question: { id: string; text: string };
  retrieval: { query: string; reason: string; rewritten: boolean };
  budget: number | null;
  total: number;
  tokensByBlock: TokensByBlock;
  /** What was sent: memory in prompt order ([1], [2], …), then the recent window oldest first. */
  items: ReplayItem[];
  /** What was considered and left out, with the budget's reason. */
  dropped: DroppedItem[];
  /** Messages sent, the system prompt included. */
  messages: number;
  model: string | null;
  warnings: string[];
};

export type ReplayDiff = {
  /** Sent now, not then; `why` says why it was not sent then. */
  added: Array<ReplayItem & { why: string }>;
  /** Sent then, not now; `why` says why not now. Texts are the stored record's (deleted memory reads [redacted]). */
  removed: Array<ReplayItem & { why: string }>;
  /** Memory items sent both times at another place in their block (history is ordered by time, not ranked). */
  reranked: Array<{ key: string; kind: MemoryKind; block: BlockName; text: string; before: number; after: number }>;
  /** Sent both times with another text (an edited fact, a window message with a part forgotten since). */
  changed: Array<{ key: string; kind: MemoryKind; block: BlockName; before: string; after: string }>;
  tokensByBlock: { before: TokensByBlock; after: TokensByBlock };
  retrievalQuery: { before: string; after: string };
  total: { before: number; after: number };
};

/** A stored record as JSON: records of older versions may lack fields, so everything is read defensively. */
export type StoredRecord = Partial<Omit<TurnRecord, 'messages'>> & { messages?: Array<{ role: string; content: unknown }> };

const EMPTY_BLOCKS: TokensByBlock = { required: 0, facts: 0, summary: 0, episodes: 0, history: 0 };

export function summarize(record: StoredRecord): ContextSummary {
  const recalled = record.recalled ?? [];
  const decisions = record.budget?.decisions ?? [];
  const rankIn = new Map<string, number>();
  const nextRank = (block: string) => {
    const rank = (rankIn.get(block) ?? 0) + 1;
    rankIn.set(block, rank);
    return rank;
  };
  const memory: ReplayItem[] = recalled
    .filter((item) => item.kept)
    .sort((a, b) => (a.n ?? Infinity) - (b.n ?? Infinity))
    .map((item) => ({
      key: item.key,
      kind: item.kind,
      block: blockOfKind(item.kind),
      text: item.text,
      rank: nextRank(blockOfKind(item.kind)),
      n: item.n,
      tokens: item.tokens,
    }));

  // The kept window: its decisions are newest first, its messages (between the system prompt and the question) oldest first.
  const keptWindow = decisions.filter((d) => d.block === 'history' && d.kept);
  const sent = (record.messages ?? []).slice(1, -1);
  const history: ReplayItem[] = [...keptWindow].reverse().map((decision, index) => {
    const message = sent.length === keptWindow.length ? sent[index] : undefined;
    return {
      key: decision.key,
      kind: 'history',
      block: 'history',
      text: message ? contentText(message.content) : '',
      rank: keptWindow.length - index,
      n: null,
      tokens: decision.tokens,
      ...(message && (message.role === 'user' || message.role === 'assistant') ? { role: message.role } : {}),
    };
  });

  const dropped: DroppedItem[] = decisions
    .filter((d) => !d.kept) // the required lines are always kept
    .map((d) => ({ key: d.key, block: d.block as BlockName, tokens: d.tokens, reason: d.reason }));

  return {
    question: { id: record.question?.id ?? '', text: record.question?.text ?? '' },
    retrieval: {
      query: record.retrieval?.query ?? record.question?.text ?? '',
      reason: record.retrieval?.reason ?? '',
      rewritten: record.retrieval?.rewritten ?? false,
    },
    budget: record.budget?.budget ?? null,
    total: record.budget?.total ?? 0,
    tokensByBlock: { ...EMPTY_BLOCKS, ...(record.budget?.byBlock ?? {}) },
    items: [...memory, ...history],
    dropped,
    messages: record.messages?.length ?? 0,
    model: record.model?.id ?? null,
    warnings: record.warnings ?? [],
  };
}

/** A text as memory put it in: citation markers and spacing are how a reply was written, not what memory held. */
const asMemory = (text: string) => stripCitationMarkers(text).replace(/\s+/gu, ' ').trim();

function blockOfKind(kind: MemoryKind): BlockName {
  return kind === 'fact' ? 'facts' : kind === 'episode' ? 'episodes' : kind === 'summary' ? 'summary' : 'history';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : '')).join('');
  return JSON.stringify(content);
}

/** The difference between two contexts of one turn; `window` is the replay's loaded window and the messages its summary stands for. */
export async function diffOf(
  userId: string,
  at: Date,
  before: ContextSummary,
  after: ContextSummary,
  window: { history: string[]; summaryCovers: string[] },
): Promise<ReplayDiff> {
  const beforeByKey = new Map(before.items.map((item) => [item.key, item]));
  const afterByKey = new Map(after.items.map((item) => [item.key, item]));
  const added = after.items.filter((item) => !beforeByKey.has(item.key));
  const removed = before.items.filter((item) => !afterByKey.has(item.key));

  const idOf = (key: string) => key.slice(key.indexOf(':') + 1);
  const keysOf = (items: ReplayItem[], kind: MemoryKind) => items.filter((i) => i.kind === kind).map((i) => idOf(i.key));
  const facts = await factStates(userId, [...keysOf(added, 'fact'), ...keysOf(removed, 'fact')]);
  const episodes = await episodeStates(userId, [...keysOf(added, 'episode'), ...keysOf(removed, 'episode')]);
  const droppedBefore = new Map(before.dropped.map((d) => [d.key, d.reason]));
  const droppedAfter = new Map(after.dropped.map((d) => [d.key, d.reason]));
  const summaryNow = after.items.find((i) => i.kind === 'summary');
  const inWindow = new Set(window.history);
  const covered = new Set(window.summaryCovers);

  const whyAdded = (item: ReplayItem): string => {
    const dropped = droppedBefore.get(item.key);
    if (dropped) return `left out then: ${dropped}`;
    switch (item.kind) {
      case 'fact': {
        const fact = facts.get(idOf(item.key));
        return fact && fact.createdAt > at ? 'learned after this turn' : 'not recalled then';
      }
      case 'episode': {
        const episode = episodes.get(idOf(item.key));
        return episode && episode.createdAt > at ? 'a later exchange' : 'not recalled then';
      }
      case 'summary':
        return before.items.some((i) => i.kind === 'summary') ? 'a newer version of the summary' : 'no summary was sent then';
      default:
        return 'not in the recent window then';
    }
  };
  const whyRemoved = (item: ReplayItem): string => {
    const dropped = droppedAfter.get(item.key);
    if (dropped) return `left out now: ${dropped}`;
    switch (item.kind) {
      case 'fact': {
        const fact = facts.get(idOf(item.key));
        if (!fact) return 'the fact was deleted';
        if (fact.status === 'superseded') return 'replaced by a newer fact';
        if (fact.status === 'deleted') return 'the fact ended (its source message was removed or edited)';
        return 'not recalled now (not among the top k)';
      }
      case 'episode':
        return episodes.has(idOf(item.key))
          ? 'not recalled now (not among the top k, or below the similarity floor)'
          : 'the episode was removed';
      case 'summary':
        return summaryNow ? 'replaced by a newer version' : 'no summary now (cleared or forgotten)';
      default: {
        const id = idOf(item.key);
        if (covered.has(id)) return 'the summary stands for it now';
        return inWindow.has(id) ? 'left out now' : 'not in the recent window now';
      }
    }
  };

  const reranked: ReplayDiff['reranked'] = [];
  const changed: ReplayDiff['changed'] = [];
  for (const item of after.items) {
    const was = beforeByKey.get(item.key);
    if (!was) continue;
    if (item.kind !== 'history' && was.rank !== item.rank) {
      reranked.push({ key: item.key, kind: item.kind, block: item.block, text: item.text, before: was.rank, after: item.rank });
    }
    if (asMemory(was.text) !== asMemory(item.text))
      changed.push({ key: item.key, kind: item.kind, block: item.block, before: was.text, after: item.text });
  }

  return {
    added: added.map((item) => ({ ...item, why: whyAdded(item) })),
    removed: removed.map((item) => ({ ...item, why: whyRemoved(item) })),
    reranked,
    changed,
    tokensByBlock: { before: before.tokensByBlock, after: after.tokensByBlock },
    retrievalQuery: { before: before.retrieval.query, after: after.retrieval.query },
    total: { before: before.total, after: after.total },
  };
}
