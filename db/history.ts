import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { getDb, type Db } from './client';
import { conversations, messages, type Message, type MessageStatus } from './schema';

/**
 * The conversation history, ruled by message ids (LangGraph's add_messages semantics):
 * a message with a new id is appended; a message with an existing id replaces that message and
 * discards everything after it; remove deletes one message; removeAll clears the conversation.
 * Every function is scoped by the signed-in user's id.
 */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Executor = Db | Tx;

export type Scope = { userId: string; conversationId: string };
export type NewUserMessage = { id?: string; content: string; metadata?: Record<string, unknown> };

export class HistoryError extends Error {
  constructor(
    readonly code: 'message_not_found' | 'not_a_user_message' | 'nothing_to_regenerate',
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
  const rows = await getDb()
    .select()
    .from(messages)
    .where(and(inScope(scope), exclude.length ? sql`${messages.id} not in ${exclude}` : undefined))
    .orderBy(desc(messages.createdAt), desc(messages.seq))
    .limit(limit);
  return rows.reverse();
}

export async function getMessage(userId: string, id: string): Promise<Message | undefined> {
  const [row] = await getDb()
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.userId, userId)));
  return row;
}

export async function getMessages(userId: string, ids: string[]): Promise<Message[]> {
  if (ids.length === 0) return [];
  return getDb()
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), inArray(messages.id, ids)));
}

/** Appends, or replaces by id and discards what follows. Returns the stored message. */
export async function putUserMessage(executor: Executor, scope: Scope, message: NewUserMessage): Promise<Message> {
  if (message.id) {
    const [existing] = await executor.select().from(messages).where(eq(messages.id, message.id));
    if (existing) {
      if (existing.userId !== scope.userId || existing.conversationId !== scope.conversationId) {
        throw new HistoryError('message_not_found', `Message ${message.id} is not in this conversation.`);
      }
      if (existing.role !== 'user') {
        throw new HistoryError('not_a_user_message', `Message ${message.id} is an assistant message; only user messages can be edited.`);
      }
      await removeAfter(executor, scope, existing);
      const [replaced] = await executor
        .update(messages)
        .set({ content: message.content, parts: [{ type: 'text', text: message.content }], updatedAt: sql`now()` })
        .where(eq(messages.id, existing.id))
        .returning();
      return replaced;
    }
  }
  const [appended] = await executor
    .insert(messages)
    .values({
      ...(message.id ? { id: message.id } : {}),
      ...scope,
      role: 'user',
      content: message.content,
      parts: [{ type: 'text', text: message.content }],
      metadata: message.metadata ?? {},
    })
    .returning();
  return appended;
}

/** For Retry: the last user message stays, whatever answered it (a failed or stopped reply) goes. */
export async function truncateAfterLastUserMessage(executor: Executor, scope: Scope): Promise<Message> {
  const [last] = await executor
    .select()
    .from(messages)
    .where(and(inScope(scope), eq(messages.role, 'user')))
    .orderBy(desc(messages.createdAt), desc(messages.seq))
    .limit(1);
  if (!last) throw new HistoryError('nothing_to_regenerate', 'This conversation has no user message to answer.');
  await removeAfter(executor, scope, last);
  return last;
}

export async function removeMessage(userId: string, id: string): Promise<boolean> {
  const rows = await getDb()
    .delete(messages)
    .where(and(eq(messages.id, id), eq(messages.userId, userId)))
    .returning({ id: messages.id });
  return rows.length > 0;
}

export async function removeAllMessages(scope: Scope): Promise<number> {
  const rows = await getDb().delete(messages).where(inScope(scope)).returning({ id: messages.id });
  return rows.length;
}

export async function insertAssistantPlaceholder(executor: Executor, scope: Scope, replyTo: string, model: string): Promise<Message> {
  const [row] = await executor
    .insert(messages)
    .values({ ...scope, role: 'assistant', status: 'streaming', replyTo, model })
    .returning();
  await executor.update(conversations).set({ updatedAt: sql`now()` }).where(eq(conversations.id, scope.conversationId));
  return row;
}

/** Saves partial text while streaming, so a crash loses at most the last interval. */
export async function saveStreamingText(id: string, content: string): Promise<void> {
  await getDb()
    .update(messages)
    .set({ content, parts: [{ type: 'text', text: content }], updatedAt: sql`now()` })
    .where(and(eq(messages.id, id), eq(messages.status, 'streaming')));
}

/** Ends a streaming reply once: the first of finish, failure or disconnect wins. */
export async function finalizeAssistantMessage(
  id: string,
  outcome: { status: Exclude<MessageStatus, 'streaming'>; content: string; error?: string },
): Promise<boolean> {
  const rows = await getDb()
    .update(messages)
    .set({
      status: outcome.status,
      content: outcome.content,
      parts: [{ type: 'text', text: outcome.content }],
      error: outcome.error ?? null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(messages.id, id), eq(messages.status, 'streaming')))
    .returning({ id: messages.id });
  return rows.length > 0;
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
const positionOf = (id: string) => sql`(select m.created_at, m.seq from messages m where m.id = ${id})`;

function inScope(scope: Scope) {
  return and(eq(messages.conversationId, scope.conversationId), eq(messages.userId, scope.userId));
}

async function removeAfter(executor: Executor, scope: Scope, message: Message): Promise<void> {
  await executor.delete(messages).where(and(inScope(scope), sql`${position} > ${positionOf(message.id)}`));
}

/** How many messages the conversation holds up to and including a given one (for the summary's thresholds). */
export async function countMessagesUpTo(scope: Scope, messageId: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(and(inScope(scope), sql`${position} <= ${positionOf(messageId)}`));
  return row.n;
}

/** Messages after a given one (or from the start), oldest first, at most `limit`. */
export async function messagesAfter(scope: Scope, afterMessageId: string | null, limit: number): Promise<Message[]> {
  return getDb()
    .select()
    .from(messages)
    .where(
      and(
        inScope(scope),
        afterMessageId
          ? sql`${position} > ${positionOf(afterMessageId)}`
          : undefined,
      ),
    )
    .orderBy(...byPosition)
    .limit(limit);
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
        sql`${position} < ${positionOf(assistantMessageId)}`,
        sql`${position} > coalesce((
          select (p.created_at, p.seq) from messages p
          where p.conversation_id = ${scope.conversationId} and p.role = 'assistant'
            and (p.created_at, p.seq) < ${positionOf(assistantMessageId)}
          order by p.created_at desc, p.seq desc limit 1), ('-infinity'::timestamptz, 0::bigint))`,
      ),
    )
    .orderBy(...byPosition);
}
