import 'server-only';
import { and, desc, eq, getTableColumns, gte, lt, lte, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb } from './client';
import type { Executor } from './provenance';
import { auditLog, auditPayloads, users } from './schema';

/** The member's words an entry is about, kept apart from it (`audit_payloads`) so that erasure can remove them. */
export type AuditText = { before: Record<string, unknown> | null; after: Record<string, unknown> | null };
export type NewAuditEntry = Omit<typeof auditLog.$inferInsert, 'id' | 'hash' | 'payloadHash'> & { text?: AuditText };

const jsonParam = (value: unknown) => sql`${value === null ? null : JSON.stringify(value)}::jsonb`;

/**
 * Appends entries (the trigger chains each to the last). An entry with the member's text stores it
 * in the payload table under the entry's id, in the same transaction, with its hash in the entry.
 */
export async function appendAudit(entries: NewAuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  if (entries.every((entry) => !entry.text)) {
    await getDb().insert(auditLog).values(entries);
    return;
  }
  await getDb().transaction(async (tx) => {
    for (const { text, ...entry } of entries) {
      if (!text || !entry.targetUserId) {
        await tx.insert(auditLog).values(entry);
        continue;
      }
      const payloadHash = sql<string>`audit_payload_hash(${jsonParam(text.before)}, ${jsonParam(text.after)})`;
      const [row] = await tx
        .insert(auditLog)
        .values({ ...entry, payloadHash })
        .returning({ id: auditLog.id });
      await tx.insert(auditPayloads).values({ entryId: row.id, userId: entry.targetUserId, ...text });
    }
  });
}

/** Erases what a member said from the audit log's payloads (forget everything); their entries stay. */
export async function erasePayloadsOf(executor: Executor, userId: string): Promise<number> {
  const rows = await executor.delete(auditPayloads).where(eq(auditPayloads.userId, userId)).returning({ id: auditPayloads.entryId });
  return rows.length;
}

/**
 * Appends a staff read unless the same actor already has a read about the same user in the same view
 * (`after.view`) within the last `withinMinutes`: the reads of one view are one entry. The lock keeps
 * the view's concurrent reads from each finding none. Returns whether it wrote one.
 */
export async function appendReadOncePerView(entry: Omit<NewAuditEntry, 'text'>, view: string, withinMinutes: number): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`audit-view:${view}`}))`);
    const [seen] = await tx
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.actorUserId, entry.actorUserId ?? ''),
          eq(auditLog.targetUserId, entry.targetUserId ?? ''),
          eq(auditLog.action, 'read'),
          sql`${auditLog.after}->>'view' = ${view}`,
          gte(auditLog.at, sql`now() - make_interval(mins => ${withinMinutes})`),
        ),
      )
      .limit(1);
    if (seen) return false;
    await tx.insert(auditLog).values({ ...entry, after: { view } });
    return true;
  });
}

export type AuditFilter = {
  actorUserId?: string;
  targetUserId?: string;
  objectType?: string;
  /** One action, or `changes`: every action but staff reads. */
  action?: string;
  from?: Date;
  to?: Date;
  /** Entries older than this id (paging, newest first). */
  before?: number;
};

const actorUser = alias(users, 'actor_user');
const targetUser = alias(users, 'target_user');

/**
 * An entry with who its actor and target are now (their email, null for a guest, or nothing once
 * deleted) and the member's text while it is kept (null once erased, or when there was none).
 */
const withPeople = () =>
  getDb()
    .select({
      ...getTableColumns(auditLog),
      actorEmail: actorUser.email,
      targetEmail: targetUser.email,
      targetKind: targetUser.kind,
      textBefore: auditPayloads.before,
      textAfter: auditPayloads.after,
      textKept: sql<boolean>`${auditPayloads.entryId} is not null`,
    })
    .from(auditLog)
    .leftJoin(actorUser, eq(actorUser.id, auditLog.actorUserId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId))
    .leftJoin(auditPayloads, eq(auditPayloads.entryId, auditLog.id));

export type AuditEntryWithPeople = Awaited<ReturnType<typeof listAudit>>[number];

export async function listAudit(filter: AuditFilter, limit: number) {
  const conditions: Array<SQL | undefined> = [
    filter.actorUserId ? eq(auditLog.actorUserId, filter.actorUserId) : undefined,
    filter.targetUserId ? eq(auditLog.targetUserId, filter.targetUserId) : undefined,
    filter.objectType ? eq(auditLog.objectType, filter.objectType) : undefined,
    filter.action === 'changes' ? ne(auditLog.action, 'read') : filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.at, filter.from) : undefined,
    filter.to ? lte(auditLog.at, filter.to) : undefined,
    filter.before ? lt(auditLog.id, filter.before) : undefined,
  ];
  return withPeople()
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

/** Every entry the filter matches, newest first, read a page at a time (for the export). */
export async function* eachAuditEntry(filter: AuditFilter, pageSize = 1000): AsyncGenerator<AuditEntryWithPeople> {
  let before = filter.before;
  for (;;) {
    const page = await listAudit({ ...filter, before }, pageSize);
    yield* page;
    if (page.length < pageSize) return;
    before = page[page.length - 1].id;
  }
}

export async function getAuditEntry(id: number): Promise<AuditEntryWithPeople | undefined> {
  const [row] = await withPeople().where(eq(auditLog.id, id));
  return row;
}
