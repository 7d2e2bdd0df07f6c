import { z } from 'zod';
import { getDb } from '@/db/client';
import { createConversation } from '@/db/conversations';
import { messages, type Message } from '@/db/schema';
import { runDueJobs, enqueuePostTurn } from './memory/post-turn';

/** A conversation to ingest with its given replies: nothing is generated. */
export const importSchema = z.object({
  title: z.string().trim().min(1).max(200).optional(),
  messages: z
    .array(
      z.object({
        role: z.enum(['user', 'assistant']),
        content: z.string().min(1, 'must not be empty').max(100_000),
        /** Provenance kept with the message, e.g. { diaId: 'D1:3' }. */
        metadata: z.record(z.string(), z.unknown()).optional(),
        createdAt: z.iso.datetime({ offset: true }).optional(),
      }),
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
  const conversation = await createConversation(userId, input.title);
  const scope = { userId, conversationId: conversation.id };
  // Imported messages without timestamps are spaced a millisecond apart, ending now.
  const base = Date.now() - input.messages.length;
  const stored: Message[] = await getDb().transaction(async (tx) => {
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
    return rows;
  });

  const jobs = { done: 0, failed: 0 };
  for (const message of stored) {
    if (message.role !== 'assistant') continue;
    const result = await runDueJobs({ messageId: message.id });
    jobs.done += result.done;
    jobs.failed += result.failed;
  }
  return { conversationId: conversation.id, messageIds: stored.map((m) => m.id), jobs };
}
