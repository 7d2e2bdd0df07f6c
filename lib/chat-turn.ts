import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  type LanguageModelUsage,
  toUIMessageStream,
  type UIMessageStreamWriter,
} from 'ai';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { getConversation, titleIfUntitled } from '@/db/conversations';
import { deleteEpisodeOf } from '@/db/episodes';
import {
  finalizeAssistantMessage,
  HistoryError,
  idsFrom,
  insertAssistantPlaceholder,
  insertQuestionAndPlaceholder,
  putUserMessage,
  reopenLastReply,
  type Scope,
  saveStreamingText,
} from '@/db/history';
import { resetJobs } from '@/db/jobs';
import { dropRedactions } from '@/db/provenance';
import type { Message, User } from '@/db/schema';
import { nextAttempt } from '@/db/turns';
import { type Actor, userActor } from './audit';
import { type AppConfig, getConfig } from './config';
import { DomainError, notFound } from './errors';
import { parseInput } from './http';
import { getModels, type Models } from './llm';
import { TextDeltaBatcher } from './llm/text-delta-batcher';
import { ReplyDeadline } from './llm/timeouts';
import { logError } from './log';
import { assertQuestionFits } from './memory/context/budget-policy';
import { assembleContext, round } from './memory/context/chain';
import { generateReply } from './memory/context/generate-reply';
import type { TurnState } from './memory/context/state';
import { buildTurnRecord, recordTurnEnd, recordTurnStart, type TurnRecord } from './memory/context/turn-record';
import { forgetBeforeReply } from './memory/corrections/forget-in-chat';
import { applyMessageCorrection, finishMessageCorrection, planMessageCorrection } from './memory/corrections/messages';
import { withForgetOutcome } from './memory/forget-outcome';
import { enqueuePostTurn, postTurnWork, schedulePostTurn } from './memory/jobs/queue';
import { readRedacted } from './memory/redaction';
import { afterChunk, failed, NOTHING_YET, passesOn, type StreamedReply, timedOut } from './reply-stream';
import { strictObject, text as textField } from './validation';

/** Built once per configuration (tests switch it), not per request: building a zod schema costs more than checking a body with it. */
const chatRequestSchemas = new WeakMap<AppConfig, ReturnType<typeof buildChatRequestSchema>>();

function chatRequestSchema(config: AppConfig) {
  const built = chatRequestSchemas.get(config);
  if (built) return built;
  const schema = buildChatRequestSchema(config);
  chatRequestSchemas.set(config, schema);
  return schema;
}

function buildChatRequestSchema(config: AppConfig) {
  const text = textField()
    .refine((value) => value.trim().length > 0, { message: 'must not be empty', abort: true, params: { code: 'empty' } })
    .refine((value) => value.length <= config.MAX_MESSAGE_CHARS, {
      message: `is longer than the limit of ${config.MAX_MESSAGE_CHARS} characters`,
      params: { code: 'too_large' },
    });
  return z.discriminatedUnion('trigger', [
    strictObject({
      trigger: z.literal('submit-message').default('submit-message'),
      conversationId: z.uuid({ error: 'must be a conversation id (uuid)' }),
      message: strictObject({ id: z.uuid().optional(), text }, 'must be an object { id?, text }'),
    }),
    strictObject({
      trigger: z.literal('regenerate-message'),
      conversationId: z.uuid({ error: 'must be a conversation id (uuid)' }),
    }),
  ]);
}

type ChatRequest = z.infer<ReturnType<typeof chatRequestSchema>>;

/** Metadata on the streamed assistant message: which user message it answers. */
type ReplyMetadata = { userMessageId: string; requestId: string; model: string; offline: boolean };

/**
 * One chat turn. Before the first byte only what the client must be able to trust: the request is
 * valid, and the question and the reply's placeholder are stored together. The stream then starts
 * under the placeholder's id, and everything else happens inside it: the context is assembled, the
 * turn record goes out and is stored, the reply streams into the placeholder. The row ends complete,
 * incomplete (stopped or disconnected, text kept) or failed.
 */
export async function runChatTurn(user: User, body: unknown, request: Request): Promise<Response> {
  const config = getConfig();
  const input = parseInput(normaliseTrigger(body), chatRequestSchema(config));
  const conversation = await getConversation(user.id, input.conversationId);
  if (!conversation) throw notFound('Conversation', input.conversationId);

  const scope: Scope = { userId: user.id, conversationId: conversation.id };
  const models = getModels();
  if (input.trigger === 'submit-message') {
    assertQuestionFits(config, models.chatModelId, { id: input.message.id ?? 'new', content: input.message.text });
  }
  const actor = userActor(user, request);
  const turn = await beginTurn(scope, input, models.chatModelId, actor);
  // The client refreshes its conversation list as the stream starts; a titled conversation writes nothing here.
  if (input.trigger === 'submit-message') await titleIfUntitled(conversation, turn.question.content);
  const prepare = async (requestId: string): Promise<TurnState> => {
    const attempt = await turn.settle();
    const question = await questionForModel(turn, actor);
    return assembleContext({ scope, requestId, config, models, question, assistantMessageId: turn.placeholder.id, attempt });
  };
  return streamTurn({ question: turn.question, assistantMessageId: turn.placeholder.id, scope, models }, prepare, request.signal);
}

/**
 * The question as the model is sent it. A request to forget is done first, before anything is
 * recalled, and the model is told the outcome instead of the thing. A retried or edited question may
 * hold a part the user had memlens forget: the model never sees it. A new one has nothing redacted
 * but what its own request to forget marked, so it is read again only then.
 */
async function questionForModel({ question: stored, isNew }: StartedTurn, actor: Actor): Promise<Message> {
  const forgot = await forgetBeforeReply(stored, actor);
  if (isNew && !forgot) return stored;
  const [read] = await readRedacted([stored], 'memory');
  return forgot ? { ...read, content: withForgetOutcome(read.content, forgot) } : read;
}

/** Any body that is an object but says nothing of a trigger is a plain submit. */
function normaliseTrigger(body: unknown) {
  return body && typeof body === 'object' && !('trigger' in body) ? { ...body, trigger: 'submit-message' } : body;
}

/**
 * The stored question and the reply's row. `settle` finishes, once the stream has started, what the
 * context must not be read before (an edit's correction, a retried reply's old episode), and gives
 * the attempt this reply is. `isNew`: the question was stored by this request (neither an edit nor a Retry).
 */
type StartedTurn = { question: Message; placeholder: Message; isNew: boolean; settle: () => Promise<number> };

/**
 * Stores the question and the reply's row. An edited question (the id of a user message of this
 * conversation) replaces the old text and discards what followed, with everything derived from
 * those messages (facts, episodes, the summary) corrected first; any other question is new. A Retry reopens the reply in place: same id, earlier attempt's record kept.
 */
async function beginTurn(scope: Scope, input: ChatRequest, model: string, actor: Actor): Promise<StartedTurn> {
  try {
    if (input.trigger === 'regenerate-message') return await reopenReply(scope, model);
    const replaced = input.message.id ? await idsFrom(getDb(), scope, input.message.id) : [];
    if (replaced.length === 0) {
      // A new question (an id that names none of this conversation's messages is a new one's): one statement.
      const jobKinds = postTurnWork.map((work) => work.kind);
      const turn = await insertQuestionAndPlaceholder(scope, { content: input.message.text }, { model, jobKinds });
      return { ...turn, isNew: true, settle: async () => 1 };
    }
    const correction = await planMessageCorrection(scope, replaced, actor, 'edit');
    return await getDb().transaction(async (tx) => {
      const { applied, changed: question } = await applyMessageCorrection(tx, correction, (tx) =>
        putUserMessage(tx, scope, { id: input.message.id, content: input.message.text }),
      );
      const placeholder = await insertAssistantPlaceholder(tx, scope, question.id, model);
      await enqueuePostTurn(tx, scope, placeholder.id);
      // A new reply row: its first attempt, once the correction is done.
      const settle = async () => {
        await finishMessageCorrection(correction, applied);
        return 1;
      };
      return { question, placeholder, isNew: false, settle };
    });
  } catch (error) {
    if (error instanceof HistoryError) throw new DomainError(error.code, error.message);
    throw error;
  }
}

async function reopenReply(scope: Scope, model: string): Promise<StartedTurn> {
  const { question, reply } = await getDb().transaction(async (tx) => {
    const reopened = await reopenLastReply(tx, scope, model);
    const placeholder = reopened.reply ?? (await insertAssistantPlaceholder(tx, scope, reopened.question.id, model));
    // The earlier attempt's redactions marked spans of its text, not of the one about to be written.
    await dropRedactions(tx, scope.userId, [placeholder.id]);
    // Its post-turn work runs again once the new attempt is written.
    await resetJobs(tx, scope.userId, placeholder.id);
    await enqueuePostTurn(tx, scope, placeholder.id);
    return { question: reopened.question, reply: placeholder };
  });
  const settle = async () => {
    // The earlier attempt's episode described a reply that is being rewritten.
    const [attempt] = await Promise.all([nextAttempt(scope.userId, reply.id), deleteEpisodeOf(scope.userId, reply.id)]);
    return attempt;
  };
  return { question, placeholder: reply, isNew: false, settle };
}

const FLUSH_INTERVAL_MS = 1000;

/** What the stream's first chunk says: whose reply this is, under which id. */
type TurnStart = { question: Message; assistantMessageId: string; scope: Scope; models: Models };

function streamTurn(start: TurnStart, prepare: (requestId: string) => Promise<TurnState>, requestSignal: AbortSignal): Response {
  // The client is gone: its request aborted (perhaps already, while the context was assembled) or it
  // cancelled the response body. Nobody is listening then; the reply ends `incomplete`.
  const cancelled = new AbortController();
  const stopped = AbortSignal.any([requestSignal, cancelled.signal]);
  const requestId = crypto.randomUUID();
  const metadata: ReplyMetadata = {
    userMessageId: start.question.id,
    requestId,
    model: start.models.chatModelId,
    offline: start.models.offline,
  };

  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      // The first byte: the client shows the reply underway while the context is assembled.
      writer.write({ type: 'start', messageId: start.assistantMessageId, messageMetadata: metadata });
      let state: TurnState;
      try {
        state = await prepare(requestId);
      } catch (caught) {
        // The question is stored; the reply fails visibly and Retry can answer it later.
        const error = `Could not assemble the context: ${describeError(caught)}`;
        await finalizeAssistantMessage(start.scope.userId, start.assistantMessageId, { status: 'failed', content: '', error });
        schedulePostTurn(start.scope, start.assistantMessageId);
        if (!stopped.aborted) writer.write({ type: 'error', errorText: error });
        return;
      }
      await streamReply(state, writer, stopped);
    },
  });
  return createUIMessageStreamResponse({ stream: abortWhenCancelled(stream, cancelled), headers: STREAM_HEADERS });
}

/** The assembled turn: its record, then the model's reply into the placeholder, then the final record. */
async function streamReply(state: TurnState, writer: UIMessageStreamWriter, stopped: AbortSignal): Promise<void> {
  const record = buildTurnRecord(state);
  // The inspector fills from this before the reply's first word.
  writer.write({ type: 'data-turn', id: state.assistantMessageId, data: record });
  const started = performance.now();
  // Stored beside the model call, not before it: the reply does not need it, and the final record
  // waits for it so that it lands last.
  const recordStarted = recordTurnStart(state, record).catch((failure) =>
    logError('could not record the turn', failure, { requestId: state.requestId }),
  );
  // Nothing more is written once the client has gone.
  const send = new TextDeltaBatcher((chunk) => stopped.aborted || writer.write(chunk));
  const deadline = new ReplyDeadline({
    firstTokenMs: state.config.CHAT_FIRST_TOKEN_TIMEOUT_MS,
    idleMs: state.config.CHAT_IDLE_TIMEOUT_MS,
  });
  // The reply as the stream has brought it so far (lib/reply-stream.ts), saved every second meanwhile.
  let reply = NOTHING_YET;
  let usage: Promise<LanguageModelUsage | undefined> = Promise.resolve(undefined);
  const flusher = setInterval(
    () => void saveStreamingText(state.scope.userId, state.assistantMessageId, reply.text).catch(() => {}),
    FLUSH_INTERVAL_MS,
  );
  try {
    deadline.start();
    const result = generateReply(state, AbortSignal.any([stopped, deadline.signal]));
    usage = Promise.resolve(result.usage).catch(() => undefined);
    const reader = toUIMessageStream({ stream: result.stream, sendStart: false, onError: describeError }).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const chunk = next.value;
      if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') deadline.token();
      if (chunk.type === 'finish') deadline.stop();
      reply = afterChunk(reply, chunk, { ms: round(performance.now() - started), stopped: stopped.aborted });
      if (passesOn(chunk)) send.push(chunk);
    }
    const timeout = deadline.expired;
    if (timeout && !stopped.aborted) {
      // The UI shows why the reply ended.
      reply = timedOut(reply, timeout.message);
      send.push({ type: 'error', errorText: timeout.message });
    }
  } catch (caught) {
    if (!stopped.aborted) {
      const error = describeError(caught);
      reply = failed(reply, error);
      send.push({ type: 'error', errorText: error });
    }
  } finally {
    deadline.stop();
    send.flush();
    clearInterval(flusher);
    await finishReply(state, record, reply, { usage, ms: round(performance.now() - started), recordStarted }, send);
  }
}

/**
 * What a reply's end writes, once, however the stream ended: the reply's row and the end of its
 * record in one statement (the stream ends once it is done), then the final record and the model's
 * finish to the client, and the post-turn work. Should the record fail, the row still ends.
 */
async function finishReply(
  state: TurnState,
  record: TurnRecord,
  reply: StreamedReply,
  generation: { usage: Promise<LanguageModelUsage | undefined>; ms: number; recordStarted: Promise<unknown> },
  send: TextDeltaBatcher,
): Promise<void> {
  const outcome = { status: reply.status, content: reply.text, error: reply.error };
  const final = await (async () => {
    // An aborted call may never report usage; do not wait for it.
    const usage = await Promise.race([generation.usage, new Promise<undefined>((r) => setTimeout(r, 100, undefined))]);
    await generation.recordStarted;
    return recordTurnEnd(state, record, { reply: outcome, usage, generateMs: generation.ms, firstTokenMs: reply.firstTokenMs });
  })().catch(async (failure) => {
    logError('could not record the turn', failure, { requestId: state.requestId });
    await finalizeAssistantMessage(state.scope.userId, state.assistantMessageId, outcome);
    return record;
  });
  send.push({ type: 'data-turn', id: state.assistantMessageId, data: final });
  if (reply.finish) send.push(reply.finish);
  schedulePostTurn(state.scope, state.assistantMessageId);
}

// no-transform: Next would otherwise gzip the event stream frame by frame, which cost a tenth of the
// server's CPU under load for a few hundred bytes saved per reply.
const STREAM_HEADERS = { 'cache-control': 'no-cache, no-transform' };

/** A browser that goes away cancels the response body; that must stop the model too. */
function abortWhenCancelled<T>(stream: ReadableStream<T>, abort: AbortController): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      abort.abort(reason);
      return reader.cancel(reason);
    },
  });
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : 'The model failed to answer.';
}
