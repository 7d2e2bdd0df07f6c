import 'server-only';
import { and, desc, eq, getTableColumns, gte, lt, lte, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb } from './client';
import { auditLog, users } from './schema';

export type NewAuditEntry = typeof auditLog.$inferInsert;

export async function appendAudit(entries: NewAuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await getDb().insert(auditLog).values(entries);
}

/**
 * Appends a staff read unless the same actor already has a read about the same user in the same view
 * (`after.view`) within the last `withinMinutes`: the reads of one view are one entry. The lock keeps
 * the view's concurrent reads from each finding none. Returns whether it wrote one.
 */
export async function appendReadOncePerView(entry: NewAuditEntry, view: string, withinMinutes: number): Promise<boolean> {
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

/** An entry with who its actor and target are now: their email (null for a guest), or nothing once deleted. */
const withPeople = () =>
  getDb()
    .select({
      ...getTableColumns(auditLog),
      actorEmail: actorUser.email,
      targetEmail: targetUser.email,
      targetKind: targetUser.kind,
    })
    .from(auditLog)
    .leftJoin(actorUser, eq(actorUser.id, auditLog.actorUserId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId));

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
