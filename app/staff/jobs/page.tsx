import type { Metadata } from 'next';
import { JobsPage } from '@/components/staff/jobs-page';
import type { JobStatus } from '@/components/staff/types';
import { requireStaffPage } from '@/lib/services/staff-guard';
import { isUuid } from '@/lib/shared/uuid';

export const metadata: Metadata = { title: 'Jobs' };

const STATUSES = new Set<string>(['pending', 'running', 'done', 'failed', 'dead']);

/** /staff/jobs?status=&userId=: the post-turn jobs, their failures, and Retry. */
export default async function StaffJobs({
  searchParams,
}: {
  searchParams: Promise<{ status?: string | string[]; userId?: string | string[] }>;
}) {
  await requireStaffPage();
  const { status, userId } = await searchParams;
  return (
    <JobsPage
      status={typeof status === 'string' && STATUSES.has(status) ? (status as JobStatus) : null}
      userId={typeof userId === 'string' && isUuid(userId) ? userId.toLowerCase() : null}
    />
  );
}
