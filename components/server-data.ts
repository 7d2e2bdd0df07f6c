import { headers } from 'next/headers';
import { cache } from 'react';
import { listConversations } from '@/db/conversations';
import type { Conversation, Message } from '@/db/schema';
import { getConfig } from '@/lib/config';
import { getModels } from '@/lib/llm';
import type { MessageMark } from '@/lib/messages';
import { userFromHeaders } from '@/lib/session';
import type { ConversationSummary, ModelInfo, StoredMessage } from './types';

// Server-only helpers for the pages: they read the session cookie, so every page using them is dynamic.

/** The signed-in member, else this browser's guest; undefined before its first write (a page view makes nothing). */
export const currentUser = cache(async () => userFromHeaders(await headers()));

export function modelInfo(): ModelInfo {
  const models = getModels();
  return { chat: models.chatModelId, offline: models.offline, maxMessageChars: getConfig().MAX_MESSAGE_CHARS };
}

export async function conversationSummaries(userId: string): Promise<ConversationSummary[]> {
  return (await listConversations(userId)).map(toSummary);
}

export function toSummary(conversation: Conversation): ConversationSummary {
  return {
    id: conversation.id,
    title: conversation.title,
    createdAt: conversation.createdAt.toISOString(),
    updatedAt: conversation.updatedAt.toISOString(),
  };
}

export function toStoredMessage(message: Message & { marks: MessageMark[] }): StoredMessage {
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    status: message.status,
    error: message.error,
    model: message.model,
    createdAt: message.createdAt.toISOString(),
    marks: message.marks,
  };
}

export const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
