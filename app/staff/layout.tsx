import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { StaffShell } from '@/components/staff/shell';
import { requireStaffPage } from '@/lib/services/staff-guard';

export const metadata: Metadata = { title: { default: 'Staff console', template: '%s · Staff · memlens' }, robots: { index: false } };

/** The staff console: signed-out visitors get the 401 page, members who are not staff the 403 page. */
export default async function StaffLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaffPage();
  return <StaffShell staff={staff}>{children}</StaffShell>;
}
