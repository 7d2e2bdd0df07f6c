import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { createConversation, deleteConversation } from '@/db/conversations';
import type { Scope } from '@/db/history';
import type { Executor } from '@/db/provenance';
import { type ImportedMessage, messages } from '@/db/schema';
import { getConfig } from './config';
import { enqueuePostTurns, runImportedJobs } from './memory/jobs/queue';
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

/** The messages as they will be stored, with their ids and times chosen now, so that a reply can point at its question before either is stored. */
export function importedMessages(input: ImportInput, now = Date.now()): ImportedMessage[] {
  // Imported messages without timestamps are spaced a millisecond apart, ending now.
  const base = now - input.messages.length;
  let lastUserId: string | null = null;
  return input.messages.map((message, index) => {
    const id = randomUUID();
    const row: ImportedMessage = {
      id,
      role: message.role,
      content: message.content,
      replyTo: message.role === 'assistant' ? lastUserId : null,
      metadata: message.metadata ?? {},
      createdAt: message.createdAt ?? new Date(base + index).toISOString(),
    };
    if (message.role === 'user') lastUserId = id;
    return row;
  });
}

/** How far an import has come: messages stored, then replies whose post-turn work has run (both in order). */
export type ImportProgress = { messagesStored: number; repliesDone: number };
type ProgressUpdate = Partial<ImportProgress> & { jobs?: { done: number; failed: number } };

/**
 * Stores the messages (from `from.messagesStored` on) and then runs all post-turn work as if they had
 * been chatted (each reply's episode, the facts of its question, the summary refresh), batched across
 * the replies with the same results (runImportedJobs), IMPORT_CHUNK at a time: a few hundred messages
 * per transaction, so that live turns get the database between chunks. Each chunk's messages are
 * committed with their jobs and with `record(tx, progress)`, so that a cut-off import resumes where its
 * record says (`signal` stops it between chunks). A job that fails stays due, as any turn's does,
 * and does not fail the import.
 */
export async function ingestImport(
  scope: Scope,
  rows: ImportedMessage[],
  from: ImportProgress,
  record: (executor: Executor, progress: ProgressUpdate) => Promise<void>,
  signal?: AbortSignal,
): Promise<{ done: number; failed: number }> {
  const chunk = getConfig().IMPORT_CHUNK;
  for (let start = from.messagesStored; start < rows.length; start += chunk) {
    signal?.throwIfAborted();
    const stored = rows.slice(start, start + chunk);
    await getDb().transaction(async (tx) => {
      // Rows in input order, so their seqs follow it (a statement numbers its rows in order).
      await tx.insert(messages).values(stored.map((row) => messageRow(row, scope)));
      // Committed with the messages: an import cut off midway leaves no reply without its jobs.
      await enqueuePostTurns(
        tx,
        scope,
        stored.filter((row) => row.role === 'assistant').map((row) => row.id),
      );
      await record(tx, { messagesStored: start + stored.length });
    });
  }
  const replies = repliesWithQuestions(rows);
  const jobs = { done: 0, failed: 0 };
  for (let start = from.repliesDone; start < replies.length; start += chunk) {
    signal?.throwIfAborted();
    const stretch = replies.slice(start, start + chunk);
    const ran = await runImportedJobs(stretch);
    jobs.done += ran.done;
    jobs.failed += ran.failed;
    await record(getDb(), { repliesDone: start + stretch.length, jobs: ran });
  }
  return jobs;
}

/**
 * Imports at once, for scripts, benchmarks and tests that read the result: returns when every
 * message is stored and its post-turn work has run. All or nothing: on an error, the conversation
 * and everything stored with it are deleted. (POST /api/import queues instead: lib/import-queue.ts.)
 */
export async function importConversation(
  userId: string,
  input: ImportInput,
): Promise<{ conversationId: string; messageIds: string[]; jobs: { done: number; failed: number } }> {
  const rows = importedMessages(input);
  const { id: conversationId } = await createConversation(userId, input.title);
  try {
    const jobs = await ingestImport({ userId, conversationId }, rows, { messagesStored: 0, repliesDone: 0 }, async () => {});
    return { conversationId, messageIds: rows.map((row) => row.id), jobs };
  } catch (error) {
    await deleteConversation(userId, conversationId);
    throw error;
  }
}

function messageRow(row: ImportedMessage, scope: Scope) {
  return {
    ...row,
    ...scope,
    parts: [{ type: 'text' as const, text: row.content }],
    status: 'complete' as const,
    model: row.role === 'assistant' ? 'imported' : null,
    createdAt: new Date(row.createdAt),
  };
}

/**
 * Each reply, in input order (the order its jobs run in), with the user messages it answers: those
 * since the previous reply by position (time, then input order), as the post-turn work reads a turn.
 */
function repliesWithQuestions(rows: ImportedMessage[]) {
  const questions = new Map<string, string[]>();
  let asked: string[] = [];
  for (const row of rows.toSorted((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))) {
    if (row.role === 'user') asked.push(row.content);
    else {
      questions.set(row.id, asked);
      asked = [];
    }
  }
  return rows.filter((row) => row.role === 'assistant').map((row) => ({ id: row.id, questions: questions.get(row.id)! }));
}
