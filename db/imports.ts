import 'server-only';
import { and, desc, eq, getTableColumns, inArray, or, sql } from 'drizzle-orm';
import { getDb } from './client';
import type { Executor } from './provenance';
import { conversations, type Import, type ImportedMessage, imports } from './schema';

// Every read here that serves a user takes their id: another user's import does not exist for them.

const ACTIVE = ['pending', 'running'] as const;

// What a user reads of an import (polled while it runs): not its messages, up to MAX_IMPORT_BODY_BYTES.
const { payload: _payload, ...columnsWithoutPayload } = getTableColumns(imports);
const withoutPayload = { ...columnsWithoutPayload, payload: sql<null>`null` };

/** A new pending import; undefined when the user already has one pending or running (the partial unique index). */
export async function insertImport(userId: string, title: string | undefined, payload: ImportedMessage[]): Promise<Import | undefined> {
  const [row] = await getDb()
    .insert(imports)
    .values({
      userId,
      title: title ?? null,
      payload,
      messagesTotal: payload.length,
      repliesTotal: payload.filter((message) => message.role === 'assistant').length,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** The user's pending or running import, if any. */
export async function activeImportOf(userId: string): Promise<Import | undefined> {
  const [row] = await getDb()
    .select(withoutPayload)
    .from(imports)
    .where(and(eq(imports.userId, userId), inArray(imports.status, [...ACTIVE])));
  return row;
}

export async function importOf(userId: string, id: string): Promise<Import | undefined> {
  const [row] = await getDb()
    .select(withoutPayload)
    .from(imports)
    .where(and(eq(imports.id, id), eq(imports.userId, userId)));
  return row;
}

/** The user's imports, newest first. */
export async function importsOf(userId: string, limit: number): Promise<Import[]> {
  const rows = await getDb()
    .select(withoutPayload)
    .from(imports)
    .where(eq(imports.userId, userId))
    .orderBy(desc(imports.createdAt))
    .limit(limit);
  return rows;
}

/**
 * Claims the oldest import that is due: pending, or running under a lease that lapsed (its worker
 * died; it resumes from its counts). Returns it with its payload, or undefined when none is due.
 */
export async function claimImport(leaseSeconds: number): Promise<Import | undefined> {
  const due = or(
    eq(imports.status, 'pending'),
    and(eq(imports.status, 'running'), sql`${imports.updatedAt} < now() - make_interval(secs => ${leaseSeconds})`),
  );
  const candidate = getDb()
    .select({ id: imports.id })
    .from(imports)
    .where(due)
    .orderBy(imports.createdAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await getDb()
    .update(imports)
    .set({ status: 'running', updatedAt: sql`now()` })
    .where(inArray(imports.id, candidate))
    .returning();
  return row;
}

/** Imports left running by a process that died, due again at once (the embedded database, which this process alone serves). */
export async function releaseOrphanedImports(): Promise<number> {
  const rows = await getDb()
    .update(imports)
    .set({ status: 'pending', updatedAt: sql`now()` })
    .where(eq(imports.status, 'running'))
    .returning({ id: imports.id });
  return rows.length;
}

export async function renewImportLease(id: string): Promise<void> {
  await getDb()
    .update(imports)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(imports.id, id), eq(imports.status, 'running')));
}

/** The import's conversation, created in the same transaction that records it (a resumed import finds it). */
export async function createImportConversation(row: Import): Promise<string> {
  return getDb().transaction(async (tx) => {
    const [conversation] = await tx
      .insert(conversations)
      .values({ userId: row.userId, ...(row.title ? { title: row.title } : {}) })
      .returning({ id: conversations.id });
    await tx.update(imports).set({ conversationId: conversation.id, updatedAt: sql`now()` }).where(eq(imports.id, row.id));
    return conversation.id;
  });
}

/** Records how far the import has come, in the transaction that got it there. */
export async function recordImportProgress(
  executor: Executor,
  id: string,
  progress: Partial<Pick<Import, 'messagesStored' | 'repliesDone'>> & { jobs?: { done: number; failed: number } },
): Promise<void> {
  await executor
    .update(imports)
    .set({
      ...(progress.messagesStored === undefined ? {} : { messagesStored: progress.messagesStored }),
      ...(progress.repliesDone === undefined ? {} : { repliesDone: progress.repliesDone }),
      ...(progress.jobs
        ? { jobsDone: sql`${imports.jobsDone} + ${progress.jobs.done}`, jobsFailed: sql`${imports.jobsFailed} + ${progress.jobs.failed}` }
        : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(imports.id, id));
}

/** Done or failed: the payload is dropped (a failed import's conversation is deleted by its caller). */
export async function finishImport(id: string, outcome: { status: 'done' } | { status: 'failed'; error: string }): Promise<void> {
  await getDb()
    .update(imports)
    .set({
      status: outcome.status,
      error: outcome.status === 'failed' ? outcome.error : null,
      payload: null,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(imports.id, id));
}
