import type { User } from '@/db/schema';
import { type StaffSource, setRole } from '@/db/users';
import { audit, systemActor } from './audit';

/**
 * Makes a member staff or a user again, and writes the change to the audit log: `via` says where
 * it came from (the STAFF_EMAILS list, or a grant by hand with `npm run user:grant-staff`).
 */
export async function changeRole(
  member: Pick<User, 'id'> | { email: string },
  role: User['role'],
  via: StaffSource,
): Promise<User | undefined> {
  const before = await setRole(member, role, via);
  if (!before) return undefined;
  if (before.role !== role) {
    await audit(systemActor(via === 'grant' ? 'cli:user:grant-staff' : 'STAFF_EMAILS'), before.id, [
      {
        objectType: 'user',
        objectId: before.id,
        action: role === 'staff' ? 'grant_staff' : 'revoke_staff',
        before: { role: before.role },
        after: { role, via },
      },
    ]);
  }
  return { ...before, role, staffVia: role === 'staff' ? via : null };
}
