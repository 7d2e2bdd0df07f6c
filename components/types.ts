import type { UIMessage } from 'ai';
import type { Conversation, Message } from '@/db/schema';
import type { ImportView } from '@/lib/import-queue';
import type { MessageMark } from '@/lib/services/messages';
import type { TurnRecord } from './api-types';
import type { Json } from './json';

export type { ImportView, MessageMark };

/** How a stored message ended; `streaming` while a reply is still being written. */
export type MessageStatus = Message['status'];

/**
 * Metadata on a chat message. `status`/`error` come from the database (or are set locally when a
 * live stream ends); the rest arrives on the stream's `start` chunk.
 */
type ChatMetadata = {
  status?: MessageStatus;
  error?: string | null;
  createdAt?: string;
  userMessageId?: string;
  requestId?: string;
  model?: string;
  offline?: boolean;
  /** Parts of the message memlens forgot (or the user corrected): shown marked, no longer sent to the model. */
  marks?: MessageMark[];
};

/** Data parts streamed with a reply: `data-turn` carries the turn record the inspector shows. */
type ChatDataParts = { turn: TurnRecord };

export type ChatMessage = UIMessage<ChatMetadata, ChatDataParts>;

/** The turn record streamed with a reply (the latest one: the same id replaces it in place), if any. */
export function turnRecordOf(message: Pick<ChatMessage, 'parts'>): TurnRecord | undefined {
  for (let i = message.parts.length - 1; i >= 0; i -= 1) {
    const part = message.parts[i];
    if (part.type === 'data-turn') return part.data;
  }
  return undefined;
}

/** A conversation as the API returns it (dates as ISO strings). */
export type ConversationSummary = Json<Pick<Conversation, 'id' | 'title' | 'createdAt' | 'updatedAt'>>;

/** GET /api/me → model */
export type ModelInfo = { chat: string; offline: boolean; maxMessageChars: number };

/** What the chat reads of a message row (GET /api/conversations/:id/messages answers the whole row). */
export type StoredMessage = Json<Pick<Message, 'id' | 'role' | 'content' | 'status' | 'error' | 'model' | 'createdAt'>> & {
  marks?: MessageMark[];
};

export function toChatMessage(message: StoredMessage): ChatMessage {
  return {
    id: message.id,
    role: message.role,
    parts: [{ type: 'text', text: message.content }],
    metadata: {
      status: message.status,
      error: message.error,
      createdAt: message.createdAt,
      model: message.model ?? undefined,
      marks: message.marks,
    },
  };
}

export function textOf(message: Pick<ChatMessage, 'parts'>): string {
  return message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Client-side mirror of the server's message rules; returns the problem, or null. */
export function validateMessage(text: string, maxChars: number): string | null {
  if (text.trim().length === 0) return 'Write a message first.';
  if (text.length > maxChars) {
    const over = text.length - maxChars;
    return `Your message is too long: ${text.length.toLocaleString('en-US')} characters, the limit is ${maxChars.toLocaleString('en-US')}. Remove ${over.toLocaleString('en-US')} character${over === 1 ? '' : 's'}.`;
  }
  return null;
}
