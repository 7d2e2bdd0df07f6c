import { type AuditFilter, eachAuditEntry, getAuditEntry, listAudit } from '@/db/audit';
import { userIdByEmail } from '@/db/staff';
import { DomainError, notFound } from '../errors';
import { isUuid } from '../shared/uuid';

/**
 * The audit log's filter as staff type it (the actor and the target user each by id or by email), with
 * each user named by email turned into their id. An email no user has is refused
 * (rather than dropped, which would answer with every user's entries).
 */
export async function auditFilter(query: AuditFilter): Promise<AuditFilter> {
  const resolve = async (field: 'actorUserId' | 'targetUserId') => {
    const value = query[field];
    if (!value || isUuid(value)) return value?.toLowerCase();
    const id = await userIdByEmail(value);
    if (!id) throw new DomainError('unknown_user', `${field}: no user has the email ${value}.`, { field });
    return id;
  };
  return { ...query, actorUserId: await resolve('actorUserId'), targetUserId: await resolve('targetUserId') };
}

/** The audit log, newest first: a page of it, or every matching entry read a page at a time (for the export). */
export const auditPage = (filter: AuditFilter, limit: number) => listAudit(filter, limit);
export const everyAuditEntry = (filter: AuditFilter) => eachAuditEntry(filter);

/** One audit entry by its id as the URL gives it; any other text is not found. */
export async function auditEntry(id: string) {
  const entry = /^\d{1,18}$/u.test(id) ? await getAuditEntry(Number(id)) : undefined;
  if (!entry) throw notFound('Audit entry', id);
  return entry;
}
