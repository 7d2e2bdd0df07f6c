import 'server-only';
import { and, desc, eq, getTableColumns, inArray, or, sql } from 'drizzle-orm';
import { getDb } from './client';
import { cutOff } from './jobs';
import type { Executor } from './provenance';
import { conversations, type Import, type ImportedMessage, imports, users } from './schema';

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
 * died; it resumes from its counts). Each claim is an attempt: a due import that has had
 * `maxAttempts` (each cut off by a crash or a stall: one that fails ends `failed` at once) is not
 * claimed but becomes `dead`, its payload kept for a retry. Returns it with its payload, or
 * undefined when none is due.
 */
export async function claimImport(options: { leaseSeconds: number; maxAttempts: number }): Promise<Import | undefined> {
  const due = or(
    eq(imports.status, 'pending'),
    and(eq(imports.status, 'running'), sql`${imports.updatedAt} < now() - make_interval(secs => ${options.leaseSeconds})`),
  );
  const candidate = getDb()
    .select({ id: imports.id })
    .from(imports)
    .where(due)
    .orderBy(imports.createdAt)
    .limit(1)
    .for('update', { skipLocked: true });
  // One statement: the oldest due import is claimed, or becomes dead when it has no attempt left.
  const spent = sql`${imports.attempts} >= ${options.maxAttempts}`;
  const [row] = await getDb()
    .update(imports)
    .set({
      status: sql`case when ${spent} then 'dead'::import_status else 'running'::import_status end`,
      attempts: sql`case when ${spent} then ${imports.attempts} else ${imports.attempts} + 1 end`,
      error: sql`case when ${spent} then ${cutOff(options.maxAttempts)} else ${imports.error} end`,
      updatedAt: sql`now()`,
    })
    .where(inArray(imports.id, candidate))
    .returning();
  // A dead one is no longer due, so looking again ends once no spent import is left first in line.
  return row?.status === 'dead' ? claimImport(options) : row;
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

/** An import its worker stopped between chunks (a shutdown): that run is not an attempt; it resumes once its lease lapses. */
export async function uncountAttempt(id: string): Promise<void> {
  await getDb()
    .update(imports)
    .set({ attempts: sql`greatest(${imports.attempts} - 1, 0)` })
    .where(and(eq(imports.id, id), eq(imports.status, 'running')));
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

/** Dead imports, newest first, with their owner's email: what the staff console lists to retry. */
export async function deadImports(limit: number, userId?: string) {
  return getDb()
    .select({ ...withoutPayload, userEmail: users.email, userKind: users.kind })
    .from(imports)
    .leftJoin(users, eq(users.id, imports.userId))
    .where(and(eq(imports.status, 'dead'), userId ? eq(imports.userId, userId) : undefined))
    .orderBy(desc(imports.updatedAt))
    .limit(limit);
}

/** A dead import of anyone's, for staff. */
export async function deadImport(id: string): Promise<Import | undefined> {
  const [row] = await getDb()
    .select(withoutPayload)
    .from(imports)
    .where(and(eq(imports.id, id), eq(imports.status, 'dead')));
  return row;
}

/**
 * A dead import due again, its attempts from zero (it resumes from its counts). False when its
 * owner has another import pending or running meanwhile: one at a time.
 */
export async function reviveImport(id: string): Promise<boolean> {
  const rows = await getDb()
    .update(imports)
    .set({ status: 'pending', attempts: 0, error: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(imports.id, id),
        eq(imports.status, 'dead'),
        sql`not exists (select 1 from ${imports} other where other.user_id = ${imports.userId} and other.status in ('pending', 'running'))`,
      ),
    )
    .returning({ id: imports.id });
  return rows.length > 0;
}
