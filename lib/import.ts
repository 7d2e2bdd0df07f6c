import { z } from 'zod';
import { getDb } from '@/db/client';
import { conversations, messages, type Message } from '@/db/schema';
import { runDueJobs, enqueuePostTurn } from './memory/post-turn';
import { isoTime, metadata, strictObject, text } from './validation';

/** A conversation to ingest with its given replies: nothing is generated. */
export const importSchema = strictObject({
  title: text().trim().min(1, 'must not be empty').max(200, 'is longer than 200 characters').optional(),
  messages: z
    .array(
      strictObject({
        role: z.enum(['user', 'assistant'], { error: 'must be "user" or "assistant"' }),
        content: text().min(1, 'must not be empty').max(100_000, 'is longer than 100000 characters'),
        /** Provenance kept with the message, e.g. { diaId: 'D1:3' }. */
        metadata: metadata.optional(),
        createdAt: isoTime.optional(),
      }),
      { error: 'must be an array of messages' },
    )
    .min(1, 'must hold at least one message')
    .max(5000, 'holds more than 5000 messages'),
});

export type ImportInput = z.infer<typeof importSchema>;

/**
 * Stores the messages in order, then runs all post-turn work turn by turn, as if they had been
 * chatted: each reply's episode, the facts of its question, the summary refresh. Returns when done.
 */
export async function importConversation(userId: string, input: ImportInput): Promise<{ conversationId: string; messageIds: string[]; jobs: { done: number; failed: number } }> {
  // Imported messages without timestamps are spaced a millisecond apart, ending now.
  const base = Date.now() - input.messages.length;
  // All or nothing: the conversation and its messages are written together, or not at all.
  const { scope, stored } = await getDb().transaction(async (tx) => {
    const [conversation] = await tx
      .insert(conversations)
      .values({ userId, ...(input.title ? { title: input.title } : {}) })
      .returning({ id: conversations.id });
    const scope = { userId, conversationId: conversation.id };
    const rows: Message[] = [];
    let lastUserId: string | null = null;
    for (const [index, message] of input.messages.entries()) {
      const [row]: Message[] = await tx
        .insert(messages)
        .values({
          ...scope,
          role: message.role,
          content: message.content,
          parts: [{ type: 'text', text: message.content }],
          status: 'complete',
          replyTo: message.role === 'assistant' ? lastUserId : null,
          metadata: message.metadata ?? {},
          model: message.role === 'assistant' ? 'imported' : null,
          createdAt: message.createdAt ? new Date(message.createdAt) : new Date(base + index),
        })
        .returning();
      if (message.role === 'user') lastUserId = row.id;
      // Committed with the messages: an import cut off midway leaves no reply without its jobs.
      else await enqueuePostTurn(scope, row.id, tx);
      rows.push(row);
    }
    return { scope, stored: rows };
  });

  const jobs = { done: 0, failed: 0 };
  for (const message of stored) {
    if (message.role !== 'assistant') continue;
    const result = await runDueJobs({ messageId: message.id });
    jobs.done += result.done;
    jobs.failed += result.failed;
  }
  return { conversationId: scope.conversationId, messageIds: stored.map((m) => m.id), jobs };
}
