import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { conversations, messages } from '@/db/schema';
import { enqueuePostTurns, runImportedJobs } from './memory/post-turn';
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
 * Stores the messages in order, then runs all post-turn work as if they had been chatted (each
 * reply's episode, the facts of its question, the summary refresh), batched across the replies
 * with the same results (runImportedJobs). Returns when done.
 */
export async function importConversation(userId: string, input: ImportInput): Promise<{ conversationId: string; messageIds: string[]; jobs: { done: number; failed: number } }> {
  // Imported messages without timestamps are spaced a millisecond apart, ending now.
  const base = Date.now() - input.messages.length;
  const rows = messageRows(input, base);
  // All or nothing: the conversation, its messages and their jobs are written together, or not at all.
  const scope = await getDb().transaction(async (tx) => {
    const [conversation] = await tx
      .insert(conversations)
      .values({ userId, ...(input.title ? { title: input.title } : {}) })
      .returning({ id: conversations.id });
    const scope = { userId, conversationId: conversation.id };
    // Rows in input order, so their seqs follow it (a statement numbers its rows in order).
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await tx.insert(messages).values(rows.slice(i, i + INSERT_CHUNK).map((row) => ({ ...row, ...scope })));
    // Committed with the messages: an import cut off midway leaves no reply without its jobs.
    await enqueuePostTurns(scope, rows.filter((row) => row.role === 'assistant').map((row) => row.id), tx);
    return scope;
  });
  const jobs = await runImportedJobs(repliesWithQuestions(rows));
  return { conversationId: scope.conversationId, messageIds: rows.map((row) => row.id), jobs };
}

/** Rows per INSERT statement: well under Postgres's limit of 65,535 parameters. */
const INSERT_CHUNK = 1000;

/** The messages as rows with their ids chosen here, so that a reply can point at its question before either is stored. */
function messageRows(input: ImportInput, base: number) {
  let lastUserId: string | null = null;
  return input.messages.map((message, index) => {
    const id = randomUUID();
    const row = {
      id,
      role: message.role,
      content: message.content,
      parts: [{ type: 'text' as const, text: message.content }],
      status: 'complete' as const,
      replyTo: message.role === 'assistant' ? lastUserId : null,
      metadata: message.metadata ?? {},
      model: message.role === 'assistant' ? 'imported' : null,
      createdAt: message.createdAt ? new Date(message.createdAt) : new Date(base + index),
    };
    if (message.role === 'user') lastUserId = id;
    return row;
  });
}

/**
 * Each reply, in input order (the order its jobs run in), with the user messages it answers: those
 * since the previous reply by position (time, then input order), as the post-turn work reads a turn.
 */
function repliesWithQuestions(rows: Array<{ id: string; role: 'user' | 'assistant'; content: string; createdAt: Date }>) {
  const questions = new Map<string, string[]>();
  let asked: string[] = [];
  for (const row of rows.toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    if (row.role === 'user') asked.push(row.content);
    else {
      questions.set(row.id, asked);
      asked = [];
    }
  }
  return rows.filter((row) => row.role === 'assistant').map((row) => ({ id: row.id, questions: questions.get(row.id)! }));
}
