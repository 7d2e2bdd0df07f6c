import type { Metadata } from 'next';
import { AuditPage } from '@/components/staff/audit-page';
import type { AuditFilter } from '@/components/staff/types';
import { requireStaffPage } from '@/lib/services/staff-guard';

export const metadata: Metadata = { title: 'Audit log' };

type Search = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined, shape: RegExp) =>
  typeof value === 'string' && shape.test(value.trim()) ? value.trim() : undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WORD = /^[a-z_]{1,40}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** /staff/audit?actorUserId=&targetUserId=&objectType=&action=&from=&to=: the audit log, newest first. */
export default async function StaffAudit({ searchParams }: { searchParams: Promise<Search> }) {
  await requireStaffPage();
  const search = await searchParams;
  const filter: AuditFilter = {
    actorUserId: one(search.actorUserId, UUID)?.toLowerCase(),
    targetUserId: one(search.targetUserId, UUID)?.toLowerCase(),
    objectType: one(search.objectType, WORD),
    action: one(search.action, WORD),
    from: one(search.from, DAY),
    to: one(search.to, DAY),
  };
  return <AuditPage filter={filter} />;
}
