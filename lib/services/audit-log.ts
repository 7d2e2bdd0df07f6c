import { type AuditFilter, eachAuditEntry, getAuditEntry, listAudit } from '@/db/audit';
import { notFound } from '../errors';

/** The audit log, newest first: a page of it, or every matching entry read a page at a time (for the export). */
export const auditPage = (filter: AuditFilter, limit: number) => listAudit(filter, limit);
export const everyAuditEntry = (filter: AuditFilter) => eachAuditEntry(filter);

/** One audit entry by its id as the URL gives it; any other text is not found. */
export async function auditEntry(id: string) {
  const entry = /^\d{1,18}$/u.test(id) ? await getAuditEntry(Number(id)) : undefined;
  if (!entry) throw notFound('Audit entry', id);
  return entry;
}
