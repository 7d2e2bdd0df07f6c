import { type AuditEntryWithPeople, type AuditFilter, eachAuditEntry, getAuditEntry, listAudit } from '@/db/audit';
import { checkAuditChain } from '@/db/audit-chain';
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

/** What staff read where a member erased the words an entry was about (forget everything, account deletion). */
export const TEXT_ERASED = 'text erased by the member';

/**
 * An entry as staff read it: its before and after with the member's words put back while they are
 * kept, or `erased` saying they were erased; with the entry's hashes, so an export can be checked.
 */
function viewOf({ textBefore, textAfter, textKept, ...entry }: AuditEntryWithPeople) {
  const merge = (kept: unknown, text: unknown) =>
    text && typeof text === 'object' ? { ...(kept && typeof kept === 'object' ? kept : {}), ...text } : kept;
  return {
    ...entry,
    before: merge(entry.before, textBefore),
    after: merge(entry.after, textAfter),
    erased: entry.payloadHash !== null && !textKept ? TEXT_ERASED : null,
  };
}

/** The audit log, newest first: a page of it, or every matching entry read a page at a time (for the export). */
export const auditPage = async (filter: AuditFilter, limit: number) => (await listAudit(filter, limit)).map(viewOf);
export async function* everyAuditEntry(filter: AuditFilter) {
  for await (const entry of eachAuditEntry(filter)) yield viewOf(entry);
}

/** One audit entry by its id as the URL gives it; any other text is not found. */
export async function auditEntry(id: string) {
  const entry = /^\d{1,18}$/u.test(id) ? await getAuditEntry(Number(id)) : undefined;
  if (!entry) throw notFound('Audit entry', id);
  return viewOf(entry);
}

/** Checks the audit log's hash chain and kept payloads (`npm run audit:verify`). */
export const verifyAuditLog = () => checkAuditChain();
