import type { LanguageModelUsage } from 'ai';
import type { ReplyOutcome } from '@/db/history';
import { finishTurn, saveTurnStart } from '@/db/turns';
import { type MemoryItem, type Ranking, UNRANKED } from './context-item';
import { citedKeys, repeatedKeys } from './context-layout';
import type { TurnState } from './state';

/** What the inspector shows for one assistant message. Stored as JSON; streamed as a `data-turn` part. */
export type TurnRecord = ReturnType<typeof buildTurnRecord>;

/** The budget's verdict on a recalled item: its number in the system prompt (null: not sent), its tokens and why. */
type Verdict = { n: number | null; kept: boolean; tokens: number | null; reason: string | null };

/**
 * A recalled item as the record stores it: the item as its step made it, its kind's own fields
 * (`meta`) included, without the block (its kind names it), ranked (a summary is not: nulls) and
 * with the budget's verdict. A union by kind, as the items are.
 */
export type RecalledItem = Recorded<MemoryItem>;
/** Distributes over the kinds, so that each keeps its own `meta`. */
type Recorded<Item extends MemoryItem> = Item extends MemoryItem ? Omit<Item, 'block'> & Ranking & Verdict : never;

export function buildTurnRecord(state: TurnState) {
  const numberOf = new Map(state.numbered.map((item) => [item.key, item.n]));
  const decisionOf = new Map((state.budget?.decisions ?? []).map((d) => [d.key, d]));
  return {
    requestId: state.requestId,
    assistantMessageId: state.assistantMessageId,
    attempt: state.attempt,
    conversationId: state.scope.conversationId,
    question: { id: state.question.id, text: state.question.content },
    retrieval: state.retrieval,
    recalled: state.candidates.map(
      ({ block: _, ...item }): RecalledItem => ({
        ...UNRANKED,
        ...item,
        n: numberOf.get(item.key) ?? null,
        kept: decisionOf.get(item.key)?.kept ?? false,
        tokens: decisionOf.get(item.key)?.tokens ?? null,
        reason: decisionOf.get(item.key)?.reason ?? null,
      }),
    ),
    summary: state.numbered.find((item) => item.kind === 'summary')
      ? { version: state.summaryVersion, text: state.numbered.find((item) => item.kind === 'summary')!.text }
      : null,
    runs: state.runs,
    budget: state.budget,
    messages: [{ role: 'system' as const, content: state.system }, ...state.messages],
    model: { id: state.models.chatModelId, offline: state.models.offline },
    usage: null as null | { inputTokens: number | undefined; outputTokens: number | undefined },
    cited: [] as string[],
    status: 'streaming' as string,
    /** Time to first token: ms from the start of the 'generate' step to the first text of the reply (null until then, or if none came). */
    firstTokenMs: null as number | null,
    warnings: state.warnings,
    trace: state.trace,
  };
}

/**
 * Stored as the model is called, so the inspector can show a reply that is still streaming: the
 * record and the items sent, which a correction made from now on redacts in place.
 */
export async function recordTurnStart(
  state: TurnState,
  record: TurnRecord,
  links: ReplyLinks = { cited: [], repeated: [] },
): Promise<void> {
  const key = { assistantMessageId: state.assistantMessageId, userId: state.scope.userId, requestId: state.requestId };
  await saveTurnStart(
    { ...key, attempt: state.attempt, conversationId: state.scope.conversationId, record },
    {
      ...key,
      conversationId: state.scope.conversationId,
      items: [...state.numbered, ...state.keptHistory].map((item) => ({
        key: item.key,
        n: 'n' in item ? item.n : null,
        kind: item.kind,
        text: item.text,
        sourceMessageIds: item.sourceMessageIds,
      })),
      citedKeys: links.cited,
      repeatedKeys: links.repeated,
      retrievalRuns: state.runs,
    },
  );
}

/** The provenance links of a reply: the items it cites as [n], and those it repeats word for word without citing. */
type ReplyLinks = { cited: string[]; repeated: string[] };

/**
 * After the reply, with its row's end (lib/chat-turn.ts): usage, what it cited, how long generation
 * took (and its first token). Only these fields are written, onto the stored record: what it holds
 * from memory stays as stored, so a redaction made while the reply streamed is not undone. Returns
 * the record as stored.
 */
export async function recordTurnEnd(
  state: TurnState,
  record: TurnRecord,
  outcome: { reply: ReplyOutcome; usage?: LanguageModelUsage; generateMs: number; firstTokenMs?: number | null },
): Promise<TurnRecord> {
  const end = {
    cited: citedKeys(outcome.reply.content, state.numbered),
    status: outcome.reply.status,
    usage: outcome.usage ? { inputTokens: outcome.usage.inputTokens, outputTokens: outcome.usage.outputTokens } : null,
    trace: [...record.trace, { step: 'generate', ms: outcome.generateMs }],
    firstTokenMs: outcome.firstTokenMs ?? null,
  };
  const told = state.keptHistory.filter((message) => message.role === 'user');
  const links = {
    cited: end.cited,
    repeated: repeatedKeys(outcome.reply.content, [...state.numbered, ...told]).filter((key) => !end.cited.includes(key)),
  };
  const key = {
    userId: state.scope.userId,
    assistantMessageId: state.assistantMessageId,
    attempt: state.attempt,
    requestId: state.requestId,
  };
  const stored = await finishTurn(key, { reply: outcome.reply, record: end, citedKeys: links.cited, repeatedKeys: links.repeated });
  if (stored) return stored as TurnRecord;
  // The start's write failed: store the whole record now, as at the start.
  const final = { ...record, ...end };
  await recordTurnStart(state, final, links);
  return final;
}
