import type { Metadata } from 'next';
import { UsersPage } from '@/components/staff/users-page';
import { requireStaffPage } from '@/lib/services/staff-guard';

export const metadata: Metadata = { title: 'Users' };

/** /staff?q=: find a user by email, name or id. */
export default async function StaffUsers({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  await requireStaffPage();
  const { q } = await searchParams;
  return <UsersPage q={typeof q === 'string' ? q : ''} />;
}
