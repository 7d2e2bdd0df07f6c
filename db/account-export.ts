import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { getDb } from './client';
import { conversations, episodes, factEvents, facts, messages, summaries, summaryVersions, turnRecords, users } from './schema';

/**
 * Every row one user owns that says something about them, for "export my data": each query filters
 * by the user's id. Vectors and lexical terms are left out (derived from the text, and large).
 */
export async function userRowsForExport(userId: string) {
  const db = getDb();
  const [user] = await db
    .select({ id: users.id, kind: users.kind, email: users.email, name: users.displayName, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, userId));
  return {
    user,
    conversations: await db
      .select()
      .from(conversations)
      .where(eq(conversations.userId, userId))
      .orderBy(asc(conversations.createdAt), asc(conversations.id)),
    messages: await db
      .select({
        id: messages.id,
        conversationId: messages.conversationId,
        role: messages.role,
        content: messages.content,
        status: messages.status,
        replyTo: messages.replyTo,
        model: messages.model,
        metadata: messages.metadata,
        createdAt: messages.createdAt,
        updatedAt: messages.updatedAt,
      })
      .from(messages)
      .where(eq(messages.userId, userId))
      .orderBy(asc(messages.createdAt), asc(messages.seq)),
    facts: await db
      .select({
        id: facts.id,
        conversationId: facts.conversationId,
        slot: facts.slot,
        content: facts.content,
        value: facts.value,
        status: facts.status,
        validFrom: facts.validFrom,
        validTo: facts.validTo,
        supersededBy: facts.supersededBy,
        createdAt: facts.createdAt,
        updatedAt: facts.updatedAt,
      })
      .from(facts)
      .where(eq(facts.userId, userId))
      .orderBy(asc(facts.createdAt), asc(facts.id)),
    factEvents: await db
      .select({
        factId: factEvents.factId,
        event: factEvents.event,
        oldContent: factEvents.oldContent,
        newContent: factEvents.newContent,
        actor: factEvents.actor,
        sourceMessageId: factEvents.sourceMessageId,
        createdAt: factEvents.createdAt,
      })
      .from(factEvents)
      .where(eq(factEvents.userId, userId))
      .orderBy(asc(factEvents.createdAt), asc(factEvents.id)),
    episodes: await db
      .select({
        id: episodes.id,
        conversationId: episodes.conversationId,
        userMessageId: episodes.userMessageId,
        assistantMessageId: episodes.assistantMessageId,
        content: episodes.content,
        createdAt: episodes.createdAt,
      })
      .from(episodes)
      .where(eq(episodes.userId, userId))
      .orderBy(asc(episodes.createdAt), asc(episodes.id)),
    summaries: await db.select().from(summaries).where(eq(summaries.userId, userId)).orderBy(asc(summaries.conversationId)),
    summaryVersions: await db
      .select()
      .from(summaryVersions)
      .where(eq(summaryVersions.userId, userId))
      .orderBy(asc(summaryVersions.conversationId), asc(summaryVersions.version)),
    turnRecords: await db
      .select()
      .from(turnRecords)
      .where(eq(turnRecords.userId, userId))
      .orderBy(asc(turnRecords.createdAt), asc(turnRecords.assistantMessageId), asc(turnRecords.attempt)),
  };
}
