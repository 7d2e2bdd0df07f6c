import 'server-only';
import { and, desc, eq, gte, lt, lte, ne, type SQL } from 'drizzle-orm';
import { getDb } from './client';
import { type AuditEntry, auditLog } from './schema';

export type NewAuditEntry = typeof auditLog.$inferInsert;

export async function appendAudit(entries: NewAuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await getDb().insert(auditLog).values(entries);
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

export async function listAudit(filter: AuditFilter, limit: number): Promise<AuditEntry[]> {
  const conditions: Array<SQL | undefined> = [
    filter.actorUserId ? eq(auditLog.actorUserId, filter.actorUserId) : undefined,
    filter.targetUserId ? eq(auditLog.targetUserId, filter.targetUserId) : undefined,
    filter.objectType ? eq(auditLog.objectType, filter.objectType) : undefined,
    filter.action === 'changes' ? ne(auditLog.action, 'read') : filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.at, filter.from) : undefined,
    filter.to ? lte(auditLog.at, filter.to) : undefined,
    filter.before ? lt(auditLog.id, filter.before) : undefined,
  ];
  return getDb()
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(limit);
}

/** Every entry the filter matches, newest first, read a page at a time (for the export). */
export async function* eachAuditEntry(filter: AuditFilter, pageSize = 1000): AsyncGenerator<AuditEntry> {
  let before = filter.before;
  for (;;) {
    const page = await listAudit({ ...filter, before }, pageSize);
    yield* page;
    if (page.length < pageSize) return;
    before = page[page.length - 1].id;
  }
}

export async function getAuditEntry(id: number): Promise<AuditEntry | undefined> {
  const [row] = await getDb().select().from(auditLog).where(eq(auditLog.id, id));
  return row;
}
