import { headers } from 'next/headers';
import { forbidden, unauthorized } from 'next/navigation';
import { cache } from 'react';
import { signedInMember } from '../session';

/**
 * For the staff console's pages (server components): the signed-in staff member. A signed-out
 * visitor (a guest included) gets the 401 page (app/unauthorized.tsx), a member who is not staff
 * the 403 page (app/forbidden.tsx). The API routes check the same on every call (requireStaff).
 */
export const requireStaffPage = cache(async () => {
  const member = await signedInMember(await headers());
  if (!member) unauthorized();
  if (member.role !== 'staff') forbidden();
  return { id: member.id, email: member.email, name: member.displayName };
});
