import 'server-only';
import { and, desc, eq, not, sql } from 'drizzle-orm';
import { getDb } from './client';
import type { Executor } from './provenance';
import { type Conversation, conversations, imports, UNTITLED } from './schema';

// Every query here takes the signed-in user's id and filters by it: a conversation that is not
// yours does not exist for you.

/** The user's conversations, newest first; one that an import is still filling appears once it is done. */
export function listConversations(userId: string): Promise<Conversation[]> {
  const importing = sql`exists (select 1 from ${imports} where ${imports.conversationId} = ${conversations.id} and ${imports.status} in ('pending', 'running'))`;
  return getDb()
    .select()
    .from(conversations)
    .where(and(eq(conversations.userId, userId), not(importing)))
    .orderBy(desc(conversations.updatedAt));
}

export async function createConversation(userId: string, title?: string): Promise<Conversation> {
  const [row] = await getDb()
    .insert(conversations)
    .values({ userId, ...(title ? { title } : {}) })
    .returning();
  return row;
}

export async function getConversation(userId: string, id: string, executor: Executor = getDb()): Promise<Conversation | undefined> {
  const [row] = await executor
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)));
  return row;
}

export async function renameConversation(userId: string, id: string, title: string): Promise<Conversation | undefined> {
  const [row] = await getDb()
    .update(conversations)
    .set({ title, updatedAt: sql`now()` })
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning();
  return row;
}

/** Deletes the conversation and, by cascade, everything that belongs to it. */
export async function deleteConversation(userId: string, id: string): Promise<boolean> {
  const rows = await getDb()
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

/** A conversation still called "New conversation" takes its title from its first question. */
export async function titleIfUntitled(conversation: Conversation, question: string): Promise<void> {
  // Cut by code points: a cut between the two halves of an emoji stored a replacement character.
  const title = Array.from(question.replace(/\s+/gu, ' ').trim()).slice(0, 60).join('');
  // Most turns are in a titled conversation: no write for them.
  if (!title || conversation.title !== UNTITLED) return;
  await getDb()
    .update(conversations)
    .set({ title })
    .where(and(eq(conversations.id, conversation.id), eq(conversations.title, UNTITLED)));
}
