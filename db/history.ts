import 'server-only';
import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { type Db, getDb } from './client';
import { jobsInsert } from './jobs';
import { conversations, type JobKind, type Message, type MessageRedaction, type MessageStatus, messages, users } from './schema';

/**
 * The conversation history, ruled by message ids (LangGraph's add_messages semantics):
 * a message with the id of one of the conversation's user messages replaces that message and
 * discards everything after it; any other message is appended under an id the server picks;
 * remove deletes one message; removeAll clears the conversation.
 * Every function is scoped by the signed-in user's id.
 */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Executor = Db | Tx;

export type Scope = { userId: string; conversationId: string };

/** Exactly the scope's two columns, for an insert (a caller's scope object may carry more). */
export const ownerOf = (scope: Scope) => ({ userId: scope.userId, conversationId: scope.conversationId });
/** `id`: a user message of the scope to replace; any other id is ignored (a new message gets the server's). */
export type NewUserMessage = { id?: string; content: string; metadata?: Record<string, unknown> };

export class HistoryError extends Error {
  constructor(
    readonly code: 'not_a_user_message' | 'nothing_to_regenerate',
    message: string,
  ) {
    super(message);
  }
}

const byPosition = [asc(messages.createdAt), asc(messages.seq)] as const;

export function listMessages(scope: Scope): Promise<Message[]> {
  return getDb()
    .select()
    .from(messages)
    .where(inScope(scope))
    .orderBy(...byPosition);
}

/** The last `limit` messages, oldest first: the LIMIT runs in SQL, never over a loaded conversation. */
export async function loadRecentMessages(scope: Scope, limit: number, exclude: string[] = []): Promise<Message[]> {
  return (await loadRecentWindow(scope, limit, exclude)).messages;
}

/**
 * The recent window (as `loadRecentMessages`) with the redactions of its messages, in one statement:
 * every turn reads both. Messages at or below the user's memory floor ("forget everything") are not
 * in it: the LIMIT counts only later ones.
 */
export async function loadRecentWindow(
  scope: Scope,
  limit: number,
  exclude: string[] = [],
): Promise<{ messages: Message[]; redactions: MessageRedaction[] }> {
  const rows = await getDb()
    .select({ ...getTableColumns(messages), redactions: redactionsOfRow })
    .from(messages)
    .where(and(inScope(scope), aboveMemoryFloor, exclude.length ? sql`${messages.id} not in ${exclude}` : undefined))
    .orderBy(desc(messages.createdAt), desc(messages.seq))
    .limit(limit);
  rows.reverse();
  return {
    messages: rows.map(({ redactions: _, ...message }) => message),
    redactions: rows.flatMap((row) => row.redactions.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }))),
  };
}

/** The message was written after its user last chose "forget everything" (the memory floor, a seq). */
export const aboveMemoryFloor = sql`${messages.seq} > (select u.memory_floor_seq from ${users} u where u.id = ${messages.userId})`;

/** A message's redactions, by span, as camelCase JSON (createdAt as text). */
const redactionsOfRow = sql<Array<Omit<MessageRedaction, 'createdAt'> & { createdAt: string }>>`(
  select coalesce(jsonb_agg(jsonb_build_object(
    'id', r.id, 'messageId', r.message_id, 'userId', r.user_id, 'kind', r.kind, 'spanStart', r.span_start, 'spanEnd', r.span_end,
    'factId', r.fact_id, 'replacement', r.replacement, 'needle', r.needle, 'actor', r.actor, 'createdAt', r.created_at) order by r.span_start), '[]'::jsonb)
  from message_redactions r where r.user_id = messages.user_id and r.message_id = messages.id)`;

export async function getMessage(userId: string, id: string): Promise<Message | undefined> {
  const [row] = await getDb()
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.userId, userId)));
  return row;
}

export async function getMessages(userId: string, ids: string[], executor: Executor = getDb()): Promise<Message[]> {
  if (ids.length === 0) return [];
  return executor
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), inArray(messages.id, ids)));
}

/**
 * Replaces a user message of this conversation by id and discards what follows, or appends. A new
 * message's id is always the server's: an id that names no message of this scope (unused, or
 * another user's) is not used, so the answer never shows whether it exists elsewhere. Returns the
 * stored message; its id is the one the client learns.
 */
export async function putUserMessage(executor: Executor, scope: Scope, message: NewUserMessage): Promise<Message> {
  if (message.id) {
    const [existing] = await executor
      .select()
      .from(messages)
      .where(and(inScope(scope), eq(messages.id, message.id)));
    if (existing) {
      if (existing.role !== 'user') {
        throw new HistoryError('not_a_user_message', `Message ${message.id} is an assistant message; only user messages can be edited.`);
      }
      await removeAfter(executor, scope, existing);
      // The edited text is a new statement: the row is written afresh (same id and place, a new
      // seq), so nothing derived from the old text stays attached and no earlier "forget" or clear
      // point, which are seqs, hides it from memory.
      const [{ at }] = await executor
        .select({ at: sql<string>`${messages.createdAt}::text` })
        .from(messages)
        .where(eq(messages.id, existing.id));
      await executor.delete(messages).where(eq(messages.id, existing.id));
      const [replaced] = await executor
        .insert(messages)
        .values({
          id: existing.id,
          ...ownerOf(scope),
          role: 'user',
          content: message.content,
          parts: [{ type: 'text', text: message.content }],
          metadata: existing.metadata,
          createdAt: sql`${at}::timestamptz`,
        })
        .returning();
      return replaced;
    }
  }
  const [appended] = await executor
    .insert(messages)
    .values({
      ...ownerOf(scope),
      role: 'user',
      content: message.content,
      parts: [{ type: 'text', text: message.content }],
      metadata: message.metadata ?? {},
    })
    .returning();
  return appended;
}

/**
 * For Retry: the last user message stays and the reply to it is reopened in place (same id, so
 * feedback, citations and records bound to it stay valid); anything else after the question goes.
 * Returns the reopened reply, or none when the question had no reply yet.
 */
export async function reopenLastReply(
  executor: Executor,
  scope: Scope,
  model: string,
): Promise<{ question: Message; reply: Message | undefined }> {
  const [question] = await executor
    .select()
    .from(messages)
    .where(and(inScope(scope), eq(messages.role, 'user')))
    .orderBy(desc(messages.createdAt), desc(messages.seq))
    .limit(1);
  if (!question) throw new HistoryError('nothing_to_regenerate', 'This conversation has no user message to answer.');
  const [first] = await executor
    .select({ id: messages.id })
    .from(messages)
    .where(and(inScope(scope), sql`${position} > ${positionOf(scope, question.id)}`))
    .orderBy(...byPosition)
    .limit(1);
  await executor
    .delete(messages)
    .where(
      and(inScope(scope), sql`${position} > ${positionOf(scope, question.id)}`, first ? sql`${messages.id} <> ${first.id}` : undefined),
    );
  if (!first) return { question, reply: undefined };
  const [reply] = await executor
    .update(messages)
    .set({ status: 'streaming', content: '', parts: [], error: null, model, replyTo: question.id, updatedAt: sql`now()` })
    .where(eq(messages.id, first.id))
    .returning();
  await executor.update(conversations).set({ updatedAt: sql`now()` }).where(eq(conversations.id, scope.conversationId));
  return { question, reply };
}

/** The ids of a message and of every message after it in its conversation (what an edit replaces). */
export async function idsFrom(executor: Executor, scope: Scope, messageId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: messages.id })
    .from(messages)
    .where(and(inScope(scope), sql`${position} >= ${positionOf(scope, messageId)}`));
  return rows.map((r) => r.id);
}

/** The highest seq among a user's messages (or one conversation's): a point in time that survives edits. */
export async function maxSeq(executor: Executor, filter: { userId: string; conversationId?: string }): Promise<number> {
  const [row] = await executor
    .select({ seq: sql<string | null>`max(${messages.seq})` })
    .from(messages)
    .where(and(eq(messages.userId, filter.userId), filter.conversationId ? eq(messages.conversationId, filter.conversationId) : undefined));
  return Number(row.seq ?? 0);
}

/** The user's messages holding any of these texts (case-insensitive): where a forgotten statement was repeated or quoted. */
export async function messagesContaining(userId: string, needles: string[], executor: Executor = getDb()): Promise<Message[]> {
  const wanted = [...new Set(needles.map((n) => n.trim().toLowerCase()).filter((n) => n.length >= 2))];
  if (wanted.length === 0) return [];
  return executor
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        sql`exists (select 1 from unnest(${sql.param(wanted)}::text[]) as n(t) where strpos(lower(${messages.content}), n.t) > 0)`,
      ),
    );
}

/** The replies to these user messages. */
export async function repliesTo(userId: string, questionIds: string[]): Promise<Message[]> {
  if (questionIds.length === 0) return [];
  return getDb()
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), inArray(messages.replyTo, questionIds)));
}

export async function deleteMessages(executor: Executor, scope: Scope, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await executor
    .delete(messages)
    .where(and(inScope(scope), inArray(messages.id, ids)))
    .returning({ id: messages.id });
  return rows.length;
}

/**
 * A new question and its reply's placeholder, the conversation touched and the
 * reply's jobs, in one statement: atomic without a transaction, and one round trip. On the embedded
 * database a transaction keeps its single backend from BEGIN to COMMIT, across every await between;
 * under load a turn's first byte waited behind those.
 */
export async function insertQuestionAndPlaceholder(
  scope: Scope,
  question: Omit<NewUserMessage, 'id'>,
  reply: { model: string; jobKinds: JobKind[] },
): Promise<{ question: Message; placeholder: Message }> {
  const db = getDb();
  // Chosen here, as the reply's jobs name it in the same statement.
  const questionId = crypto.randomUUID();
  const replyId = crypto.randomUUID();
  // One VALUES list: the question takes its seq first, so it stays before its reply.
  const stored = db.$with('stored').as(
    db
      .insert(messages)
      .values([
        {
          id: questionId,
          ...ownerOf(scope),
          role: 'user',
          content: question.content,
          parts: [{ type: 'text', text: question.content }],
          metadata: question.metadata ?? {},
        },
        { id: replyId, ...ownerOf(scope), role: 'assistant', status: 'streaming', replyTo: questionId, model: reply.model },
      ])
      .returning(),
  );
  const touched = db
    .$with('touched')
    .as(db.update(conversations).set({ updatedAt: sql`now()` }).where(eq(conversations.id, scope.conversationId)));
  const queued = db.$with('queued').as(jobsInsert(reply.jobKinds.map((kind) => ({ kind, messageId: replyId, ...ownerOf(scope) }))));
  const rows = await db.with(stored, touched, queued).select().from(stored);
  const byId = new Map(rows.map((row) => [row.id, row as Message]));
  return { question: byId.get(questionId)!, placeholder: byId.get(replyId)! };
}

export async function insertAssistantPlaceholder(executor: Executor, scope: Scope, replyTo: string, model: string): Promise<Message> {
  const [row] = await executor
    .insert(messages)
    .values({ ...ownerOf(scope), role: 'assistant', status: 'streaming', replyTo, model })
    .returning();
  await executor.update(conversations).set({ updatedAt: sql`now()` }).where(eq(conversations.id, scope.conversationId));
  return row;
}

/** Saves partial text while streaming, so a crash loses at most the last interval. */
export async function saveStreamingText(userId: string, id: string, content: string): Promise<void> {
  await getDb()
    .update(messages)
    .set({ content, parts: [{ type: 'text', text: content }], updatedAt: sql`now()` })
    .where(and(eq(messages.id, id), eq(messages.userId, userId), eq(messages.status, 'streaming')));
}

/** Ends a streaming reply once: the first of finish, failure or disconnect wins. */
export async function finalizeAssistantMessage(userId: string, id: string, outcome: ReplyOutcome): Promise<boolean> {
  const rows = await endReply(getDb(), userId, id, outcome).returning({ id: messages.id });
  return rows.length > 0;
}

export type ReplyOutcome = { status: Exclude<MessageStatus, 'streaming'>; content: string; error?: string };

/** The update that ends a streaming reply (nothing if it has ended already), to run alone or in a turn's last statement. */
export function endReply(db: Db, userId: string, id: string, outcome: ReplyOutcome) {
  return db
    .update(messages)
    .set({
      status: outcome.status,
      content: outcome.content,
      parts: [{ type: 'text', text: outcome.content }],
      error: outcome.error ?? null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(messages.id, id), eq(messages.userId, userId), eq(messages.status, 'streaming')));
}

/** At start-up: replies left `streaming` by a process that died are marked incomplete, text kept. */
export async function recoverInterruptedReplies(olderThanSeconds: number): Promise<number> {
  const rows = await getDb()
    .update(messages)
    .set({ status: 'incomplete', error: 'The server stopped while this reply was streaming.' })
    .where(and(eq(messages.status, 'streaming'), sql`${messages.updatedAt} < now() - make_interval(secs => ${olderThanSeconds})`))
    .returning({ id: messages.id });
  return rows.length;
}

/** A message's place in its conversation, compared in SQL (created_at has microseconds, a JS Date only milliseconds). */
const position = sql`(${messages.createdAt}, ${messages.seq})`;
/** A message's position, read only within the scope: an id from elsewhere has none, so comparisons with it match nothing. */
const positionOf = (scope: Scope, id: string) =>
  sql`(select m.created_at, m.seq from messages m where m.id = ${id} and m.user_id = ${scope.userId} and m.conversation_id = ${scope.conversationId})`;

function inScope(scope: Scope) {
  return and(eq(messages.conversationId, scope.conversationId), eq(messages.userId, scope.userId));
}

async function removeAfter(executor: Executor, scope: Scope, message: Message): Promise<void> {
  await executor.delete(messages).where(and(inScope(scope), sql`${position} > ${positionOf(scope, message.id)}`));
}

/**
 * What a summary refresh may cover, oldest first: messages after `after` (the summary's coverage)
 * and after the floor seq (a clear or forget point), up to `upTo` (the job's reply; null = the
 * newest), minus the newest `keepRaw` of those up to `upTo`, which stay raw.
 */
export async function messagesForSummary(
  scope: Scope,
  window: { after: { at: string; seq: number } | null; floorSeq: number; upTo: string | null; keepRaw: number },
): Promise<{ fresh: Message[]; sinceFloor: number }> {
  const upTo = window.upTo ? sql`${position} <= ${positionOf(scope, window.upTo)}` : undefined;
  const older = getDb()
    .select()
    .from(messages)
    .where(and(inScope(scope), upTo, sql`${messages.seq} > ${window.floorSeq}`))
    .orderBy(desc(messages.createdAt), desc(messages.seq))
    .offset(window.keepRaw)
    .as('older');
  const rows = await getDb()
    .select()
    .from(older)
    .where(
      window.after ? sql`(${older.createdAt}, ${older.seq}) > (${window.after.at}::timestamptz, ${window.after.seq}::bigint)` : undefined,
    )
    .orderBy(asc(older.createdAt), asc(older.seq));
  const [count] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(and(inScope(scope), upTo, sql`${messages.seq} > ${window.floorSeq}`));
  return { fresh: rows as Message[], sinceFloor: count.n };
}

/** The position of a message, as the summary records it (microseconds kept as text). */
export async function positionOfMessage(scope: Scope, id: string): Promise<{ at: string; seq: number } | undefined> {
  const [row] = await getDb()
    .select({ at: sql<string>`${messages.createdAt}::text`, seq: messages.seq })
    .from(messages)
    .where(and(inScope(scope), eq(messages.id, id)));
  return row;
}

/** The user messages a reply answers: those since the previous assistant message (a user may send several in a row). */
export async function userMessagesAnsweredBy(scope: Scope, assistantMessageId: string): Promise<Message[]> {
  return getDb()
    .select()
    .from(messages)
    .where(
      and(
        inScope(scope),
        eq(messages.role, 'user'),
        sql`${position} < ${positionOf(scope, assistantMessageId)}`,
        sql`${position} > coalesce((
          select (p.created_at, p.seq) from messages p
          where p.conversation_id = ${scope.conversationId} and p.role = 'assistant'
            and (p.created_at, p.seq) < ${positionOf(scope, assistantMessageId)}
          order by p.created_at desc, p.seq desc limit 1), ('-infinity'::timestamptz, 0::bigint))`,
      ),
    )
    .orderBy(...byPosition);
}
