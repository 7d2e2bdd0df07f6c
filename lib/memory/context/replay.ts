import { getMessage } from '@/db/history';
import { loadWindowBefore, type WindowEnd } from '@/db/replay';
import { getTurnRecords } from '@/db/turns';
import { type AppConfig, getConfig } from '@/lib/config';
import { DomainError } from '@/lib/errors';
import { getModels } from '@/lib/llm';
import { whyNoRecord } from '@/lib/turn-context';
import { readRedacted } from '../redaction';
import { overBudget, recallTopK } from './budget-policy';
import { assembleContext } from './chain';
import { windowAsSent } from './load-history';
import { type ContextSummary, diffOf, type ReplayDiff, type StoredRecord, summarize } from './replay-diff';
import { step } from './state';
import { modelLimits } from './tokens';
import { buildTurnRecord } from './turn-record';

/**
 * Replay: a past turn's context assembled again, without calling the chat model, and compared with
 * what was actually sent (the stored turn record).
 *
 * - `stored`: the context as it was, from the record (the diff is empty by construction);
 * - `today`: the real chain (lib/memory/context/chain.ts) over today's memory, with the question as stored
 *   (its forgotten parts hidden) and the recent window as it stood at that turn (the messages before
 *   the question, as memory reads them today), at the turn's time (so "yesterday" means what it
 *   meant then). Overrides (budget, window, top-k, episode scope) go in through a copy of the config.
 *
 * Scoped by the owner's user id: a route for the user passes their own id; a staff route may pass
 * the id of the user whose turn it is (after its own authorization and audit).
 */

type ReplayMode = 'stored' | 'today';
type EpisodeScope = AppConfig['EPISODE_SCOPE'];

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
  if (!row) throw await whyNoRecord(scope.userId, assistantMessageId, 'replay');
  const record = row.record as unknown as StoredRecord;
  const at = row.createdAt;
  const turn = { assistantMessageId, attempt: row.attempt, conversationId: row.conversationId, at: at.toISOString() };
  const stored = summarize(record);
  const overridden = OVERRIDES.filter((name) => options[name] !== undefined);

  if (mode === 'stored') {
    if (overridden.length > 0) {
      throw new DomainError(
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
  const [question] = questionId ? await readRedacted([asStored], 'memory') : [asStored];
  // The same check as a chat turn's, refused in the words of the option that made the budget too small.
  const over = overBudget(config, models.chatModelId, question);
  if (over) {
    throw new DomainError(
      'budget_too_small',
      `budget: the system prompt and the question alone need ${over.required} tokens, more than a budget of ${over.budget}.`,
    );
  }

  // The window ends before the question; if the question was removed since, before the reply, else before the turn's time.
  const assistantRow = questionRow ? undefined : await getMessage(scope.userId, assistantMessageId);
  const end: WindowEnd = questionRow
    ? { beforeMessageId: questionRow.id }
    : assistantRow
      ? { beforeMessageId: assistantRow.id }
      : { beforeTime: at };
  const windowAtTurn = step({
    name: 'load_history',
    reads: ['config'],
    writes: ['history'],
    async run({ config: current }) {
      const rows = await readRedacted(
        await loadWindowBefore(conversation, end, current.HISTORY_WINDOW, [question.id, assistantMessageId]),
        'memory',
      );
      return { history: windowAsSent(rows) };
    },
  });

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
    { load_history: windowAtTurn },
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
      budget: modelLimits(config, models.chatModelId).budget,
      window: config.HISTORY_WINDOW,
      factsTopK: recallTopK(config, models.chatModelId, 'facts'),
      episodesTopK: recallTopK(config, models.chatModelId, 'episodes'),
      episodeScope: config.EPISODE_SCOPE,
      now: at.toISOString(),
      nowFrom: 'record',
    },
  };
}
