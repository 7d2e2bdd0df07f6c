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
export type ModelInfo = {
  chat: string;
  offline: boolean;
  maxMessageChars: number;
  /** The server's limit for one message in tokens of `encoding` (its context budget less what is always sent). */
  maxMessageTokens: number;
  encoding: 'o200k_base' | 'cl100k_base';
};

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

/**
 * Client-side mirror of the server's message rules; returns the problem, or null. `tokens` is the
 * message counted as the server counts it (`useMessageTokens`; null while it cannot be over).
 */
export function validateMessage(
  text: string,
  model: Pick<ModelInfo, 'maxMessageChars' | 'maxMessageTokens'>,
  tokens: number | null,
): string | null {
  if (text.trim().length === 0) return 'Write a message first.';
  return tooLong(text, model, tokens);
}

/** Why a message is over a limit (characters, or the model's tokens), or null. */
export function tooLong(
  text: string,
  model: Pick<ModelInfo, 'maxMessageChars' | 'maxMessageTokens'>,
  tokens: number | null,
): string | null {
  const count = (n: number) => n.toLocaleString('en-US');
  if (text.length > model.maxMessageChars) {
    const over = text.length - model.maxMessageChars;
    return `Your message is too long: ${count(text.length)} characters, the limit is ${count(model.maxMessageChars)}. Remove ${count(over)} character${over === 1 ? '' : 's'}.`;
  }
  if (tokens !== null && tokens > model.maxMessageTokens) {
    return `Your message is too long for the model: ${count(tokens)} tokens, the limit is ${count(model.maxMessageTokens)}. Shorten it by about ${count(tokens - model.maxMessageTokens)} tokens (a token is a short word or part of one).`;
  }
  return null;
}
