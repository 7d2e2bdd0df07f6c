import { getMessage } from '@/db/history';
import { episodeStates, factStates, loadWindowBefore, type WindowEnd } from '@/db/replay';
import { getTurnRecords } from '@/db/turns';
import { type AppConfig, getConfig } from '@/lib/config';
import { notFound } from '@/lib/errors';
import { HttpError } from '@/lib/http';
import { getModels } from '@/lib/llm';
import type { BlockName } from './budget';
import { assembleContext, contextSteps } from './chain';
import { recallTopK, requiredLines } from './fit-to-budget';
import { readRedacted } from './redaction';
import type { MemoryKind, Step } from './state';
import { modelLimits } from './tokens';
import { buildTurnRecord, type TurnRecord } from './turn-record';

/**
 * Replay: a past turn's context assembled again, without calling the chat model, and compared with
 * what was actually sent (the stored turn record).
 *
 * - `stored`: the context as it was, from the record (the diff is empty by construction);
 * - `today`: the real chain (lib/memory/chain.ts) over today's memory, with the question as stored
 *   (its forgotten parts hidden) and the recent window as it stood at that turn (the messages before
 *   the question, as memory reads them today), at the turn's time (so "yesterday" means what it
 *   meant then). Overrides (budget, window, top-k, episode scope) go in through a copy of the config.
 *
 * Scoped by the owner's user id: a route for the user passes their own id; a staff route may pass
 * the id of the user whose turn it is (after its own authorization and audit).
 */

export type ReplayMode = 'stored' | 'today';
export type EpisodeScope = AppConfig['EPISODE_SCOPE'];

export type ReplayOptions = {
  mode?: ReplayMode;
  /** Total context budget in tokens (CONTEXT_BUDGET). */
  budget?: number;
  /** Messages in the recent window (HISTORY_WINDOW). */
  window?: number;
  /** Facts / episodes a recall asks for (FACTS_TOP_K / EPISODES_TOP_K; 0 = auto). */
  factsTopK?: number;
  episodesTopK?: number;
  /** Which episodes may be recalled (EPISODE_SCOPE). */
  episodeScope?: EpisodeScope;
};

export const OVERRIDES = ['budget', 'window', 'factsTopK', 'episodesTopK', 'episodeScope'] as const;

type TokensByBlock = Record<BlockName | 'required', number>;

/** One item that was sent. `rank` is its position among the kept items of its block (history: 1 = newest). */
export type ReplayItem = {
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

export type DroppedItem = { key: string; block: BlockName; tokens: number | null; reason: string };

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

export type ReplayResult = {
  turn: { assistantMessageId: string; attempt: number; conversationId: string; at: string };
  stored: ContextSummary;
  replay: ContextSummary & { trace: Array<{ step: string; ms: number }> };
  diff: ReplayDiff;
  options: {
    mode: ReplayMode;
    /** Which options were given (the rest are the app's configuration). */
    overridden: Array<(typeof OVERRIDES)[number]>;
    budget: number | null;
    window: number | null;
    /** The top-k the recalls asked for (0 = auto is resolved to a number). */
    factsTopK: number | null;
    episodesTopK: number | null;
    episodeScope: EpisodeScope | null;
    /** The clock the replay ran at: always the turn's time, so relative dates resolve as they did then. */
    now: string;
    nowFrom: 'record';
  };
};

export async function replayTurn(
  scope: { userId: string },
  assistantMessageId: string,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const mode = options.mode ?? 'today';
  const [row] = await getTurnRecords(scope.userId, assistantMessageId);
  if (!row) throw await whyNoRecord(scope.userId, assistantMessageId);
  const record = row.record as unknown as StoredRecord;
  const at = row.createdAt;
  const turn = { assistantMessageId, attempt: row.attempt, conversationId: row.conversationId, at: at.toISOString() };
  const stored = summarize(record);
  const overridden = OVERRIDES.filter((name) => options[name] !== undefined);

  if (mode === 'stored') {
    if (overridden.length > 0) {
      throw new HttpError(
        400,
        'not_with_stored',
        `${overridden.join(', ')}: only a replay with today's memory takes options; "stored" is the context as it was.`,
      );
    }
    const runs = record.runs ?? [];
    return {
      turn,
      stored,
      replay: { ...stored, trace: [] },
      diff: await diffOf(scope.userId, at, stored, stored, { history: [], summaryCovers: [] }),
      options: {
        mode,
        overridden,
        budget: stored.budget,
        window: null,
        factsTopK: runs.find((r) => r.kind === 'facts')?.topK ?? null,
        episodesTopK: runs.find((r) => r.kind === 'episodes')?.topK ?? null,
        episodeScope: null,
        now: at.toISOString(),
        nowFrom: 'record',
      },
    };
  }

  const base = getConfig();
  const config: AppConfig = {
    ...base,
    ...(options.budget !== undefined ? { CONTEXT_BUDGET: options.budget } : {}),
    ...(options.window !== undefined ? { HISTORY_WINDOW: options.window } : {}),
    ...(options.factsTopK !== undefined ? { FACTS_TOP_K: options.factsTopK } : {}),
    ...(options.episodesTopK !== undefined ? { EPISODES_TOP_K: options.episodesTopK } : {}),
    ...(options.episodeScope !== undefined ? { EPISODE_SCOPE: options.episodeScope } : {}),
  };
  const models = getModels();
  const conversation = { userId: scope.userId, conversationId: row.conversationId };

  // The question as stored, read as the model would be sent it today (a part forgotten since stays hidden).
  const questionId = record.question?.id ?? '';
  const questionRow = questionId ? await getMessage(scope.userId, questionId) : undefined;
  const asStored = {
    id: questionId || crypto.randomUUID(),
    userId: scope.userId,
    role: 'user' as const,
    content: questionRow?.content ?? record.question?.text ?? '',
  };
  const [question] = questionId ? await readRedacted([asStored], 'window') : [asStored];
  const limits = modelLimits(config, models.chatModelId);
  const required = requiredLines(config, limits, question).reduce((sum, line) => sum + line.tokens, 0);
  if (required > limits.budget) {
    throw new HttpError(
      400,
      'budget_too_small',
      `budget: the system prompt and the question alone need ${required} tokens, more than a budget of ${limits.budget}.`,
    );
  }

  // The window ends before the question; if the question was removed since, before the reply, else before the turn's time.
  const assistantRow = questionRow ? undefined : await getMessage(scope.userId, assistantMessageId);
  const end: WindowEnd = questionRow
    ? { beforeMessageId: questionRow.id }
    : assistantRow
      ? { beforeMessageId: assistantRow.id }
      : { beforeTime: at };
  const windowAtTurn: Step = {
    name: 'load_history',
    async run({ config: current }) {
      const rows = await readRedacted(
        await loadWindowBefore(conversation, end, current.HISTORY_WINDOW, [question.id, assistantMessageId]),
        'window',
      );
      // As load_history: a failed or empty reply carries nothing the model should see.
      return { history: rows.filter((m) => m.content.trim() !== '' && m.status !== 'failed') };
    },
  };

  const state = await assembleContext(
    {
      scope: conversation,
      requestId: crypto.randomUUID(),
      config,
      models,
      question: { id: question.id, content: question.content, createdAt: questionRow?.createdAt ?? at },
      assistantMessageId,
      attempt: row.attempt,
      now: at,
    },
    [windowAtTurn, ...contextSteps.slice(1)],
  );
  const replayed = summarize(buildTurnRecord(state) as unknown as StoredRecord);
  return {
    turn,
    stored,
    replay: { ...replayed, trace: state.trace },
    diff: await diffOf(scope.userId, at, stored, replayed, { history: state.history.map((m) => m.id), summaryCovers: state.summaryCovers }),
    options: {
      mode,
      overridden,
      budget: limits.budget,
      window: config.HISTORY_WINDOW,
      factsTopK: recallTopK(config, models.chatModelId, 'facts'),
      episodesTopK: recallTopK(config, models.chatModelId, 'episodes'),
      episodeScope: config.EPISODE_SCOPE,
      now: at.toISOString(),
      nowFrom: 'record',
    },
  };
}

/** Why a message has no turn record to replay (another user's message is simply not found). */
async function whyNoRecord(userId: string, id: string): Promise<Error> {
  const message = await getMessage(userId, id);
  if (!message) return notFound('Message', id);
  if (message.role === 'user') return new HttpError(404, 'not_a_reply', 'This is a user message; only replies have a context to replay.');
  if (message.model === 'imported')
    return new HttpError(404, 'imported_reply', 'This reply was imported, so no context was assembled for it: there is nothing to replay.');
  if (message.status === 'failed')
    return new HttpError(404, 'failed_before_context', 'This reply failed before its context was assembled: there is nothing to replay.');
  return new HttpError(404, 'no_record', 'No context is stored for this reply, so it cannot be replayed.');
}

// ---- summaries of a record

/** A stored record as JSON: records of older versions may lack fields, so everything is read defensively. */
type StoredRecord = Partial<Omit<TurnRecord, 'messages'>> & { messages?: Array<{ role: string; content: unknown }> };

const EMPTY_BLOCKS: TokensByBlock = { required: 0, facts: 0, summary: 0, episodes: 0, history: 0 };

function summarize(record: StoredRecord): ContextSummary {
  const recalled = record.recalled ?? [];
  const decisions = record.budget?.decisions ?? [];
  const rankIn = new Map<string, number>();
  const nextRank = (block: string) => {
    const rank = (rankIn.get(block) ?? 0) + 1;
    rankIn.set(block, rank);
    return rank;
  };
  const memory: ReplayItem[] = recalled
    .filter((item) => item.kept && item.kind !== 'history')
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

function blockOfKind(kind: MemoryKind): BlockName {
  return kind === 'fact' ? 'facts' : kind === 'episode' ? 'episodes' : kind === 'summary' ? 'summary' : 'history';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : '')).join('');
  return JSON.stringify(content);
}

// ---- the difference

async function diffOf(
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
    if (was.text !== item.text) changed.push({ key: item.key, kind: item.kind, block: item.block, before: was.text, after: item.text });
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
