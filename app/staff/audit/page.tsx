import type { Metadata } from 'next';
import { AuditPage } from '@/components/staff/audit-page';
import type { AuditFilter } from '@/components/staff/types';
import { requireStaffPage } from '@/lib/services/staff-guard';
import { isUuid } from '@/lib/shared/uuid';

export const metadata: Metadata = { title: 'Audit log' };

type Search = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined, fits: (text: string) => boolean) =>
  typeof value === 'string' && fits(value.trim()) ? value.trim() : undefined;
const isWord = (text: string) => /^[a-z_]{1,40}$/.test(text);
const isDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text);
// A user as staff typed them: an id or an email, kept as typed (the audit API looks the email up).
const isUserRef = (text: string) => isUuid(text) || (text.length <= 254 && /^[^\s@]+@[^\s@]+$/u.test(text));

/** /staff/audit?actorUserId=&targetUserId=&objectType=&action=&from=&to=: the audit log, newest first. */
export default async function StaffAudit({ searchParams }: { searchParams: Promise<Search> }) {
  await requireStaffPage();
  const search = await searchParams;
  const filter: AuditFilter = {
    actorUserId: one(search.actorUserId, isUserRef),
    targetUserId: one(search.targetUserId, isUserRef),
    objectType: one(search.objectType, isWord),
    action: one(search.action, isWord),
    from: one(search.from, isDay),
    to: one(search.to, isDay),
  };
  return <AuditPage filter={filter} />;
}
