import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { UserPage } from '@/components/staff/user-page';
import { requireStaffPage } from '@/lib/services/staff-guard';
import { isUuid } from '@/lib/shared/uuid';

export const metadata: Metadata = { title: 'User' };

/** /staff/users/:id: one user's account, conversations and facts. */
export default async function StaffUser({ params }: { params: Promise<{ id: string }> }) {
  await requireStaffPage();
  const { id } = await params;
  if (!isUuid(id)) notFound();
  return <UserPage userId={id.toLowerCase()} />;
}
