import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const userKind = pgEnum('user_kind', ['guest', 'member']);

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: userKind('kind').notNull().default('guest'),
  displayName: text('display_name'),
  createdAt: createdAt(),
});

/**
 * A browser session. The cookie holds a random token; only its SHA-256 is stored.
 * Signing in later re-points a session at a member user without changing the cookie.
 */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default('New conversation'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('conversations_user_updated_idx').on(t.userId, t.updatedAt)],
);

export const messageRole = pgEnum('message_role', ['user', 'assistant']);
export const messageStatus = pgEnum('message_status', ['streaming', 'complete', 'incomplete', 'failed']);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    // Denormalised owner so every message query can filter by the signed-in user directly.
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: messageRole('role').notNull(),
    content: text('content').notNull().default(''),
    parts: jsonb('parts').$type<MessagePart[]>().notNull().default(sql`'[]'::jsonb`),
    status: messageStatus('status').notNull().default('complete'),
    // For an assistant message: the user message it answers.
    replyTo: uuid('reply_to'),
    error: text('error'),
    model: text('model'),
    // Free-form provenance, e.g. { diaId } for imported benchmark turns.
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // Breaks ties between rows written in the same microsecond (a user message and its placeholder).
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [
    index('messages_conversation_created_idx').on(t.conversationId, t.createdAt, t.seq),
    index('messages_user_idx').on(t.userId),
  ],
);

export type MessagePart = { type: 'text'; text: string };
export type User = typeof users.$inferSelect;
export type Conversation = typeof conversations.$inferSelect;
export type Message = typeof messages.$inferSelect;
export type MessageStatus = Message['status'];
