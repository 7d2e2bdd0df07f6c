import { createConversation, deleteConversation, getConversation, listConversations, renameConversation } from '@/db/conversations';
import { listMessages, type Scope } from '@/db/history';
import type { Conversation } from '@/db/schema';
import { getSummary, listSummaryVersions, summarySources } from '@/db/summaries';
import { summaryScheduleOf } from '@/lib/memory/jobs/summary-schedule';
import type { Actor } from '../audit';
import { getConfig } from '../config';
import { notFound } from '../errors';
import { removeMessages } from '../memory/corrections';
import { text } from '../validation';

/** A conversation's title, as a new conversation or a rename gives it. */
export const titleSchema = text().trim().min(1, 'must not be empty').max(200, 'is longer than 200 characters');

export const conversationsOf = (userId: string): Promise<Conversation[]> => listConversations(userId);

export const startConversation = (userId: string, title?: string): Promise<Conversation> => createConversation(userId, title);

/** The user's conversation with this id; anyone else's is not found. */
export async function conversationOf(userId: string, id: string): Promise<Conversation> {
  const conversation = await getConversation(userId, id);
  if (!conversation) throw notFound('Conversation', id);
  return conversation;
}

/** For pages: the user's conversation, or undefined (a page answers not found itself). */
export const findConversation = (userId: string, id: string): Promise<Conversation | undefined> => getConversation(userId, id);

export async function renameConversationOf(userId: string, id: string, title: string): Promise<Conversation> {
  const conversation = await renameConversation(userId, id, title);
  if (!conversation) throw notFound('Conversation', id);
  return conversation;
}

export async function deleteConversationOf(userId: string, id: string): Promise<void> {
  if (!(await deleteConversation(userId, id))) throw notFound('Conversation', id);
}

/** Every message goes, with what was derived from them alone; the conversation stays. */
export async function clearConversation(scope: Scope, actor: Actor) {
  const ids = (await listMessages(scope)).map((m) => m.id);
  return (await removeMessages(scope, ids, actor)).removed;
}

/** The current summary with the messages it covers, every version of it, and when the next is written. */
export async function summaryWithVersions(scope: Scope) {
  const summary = await getSummary(scope);
  return {
    summary: summary ? { ...summary, sourceMessageIds: await summarySources(scope, summary.version) } : null,
    versions: await listSummaryVersions(scope),
    schedule: await summaryScheduleOf(scope, getConfig()),
  };
}

/** The user's conversations as the sidebar lists them. */
export async function conversationSummaries(userId: string) {
  return (await listConversations(userId)).map(toSummary);
}

export function toSummary(conversation: Conversation) {
  return {
    id: conversation.id,
    title: conversation.title,
    createdAt: conversation.createdAt.toISOString(),
    updatedAt: conversation.updatedAt.toISOString(),
  };
}
