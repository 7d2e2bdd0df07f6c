import type { User } from '@/db/schema';
import { markEmailVerified, takeInvite } from '@/db/staff-invites';
import { adoptAccount, type StaffSource, setRole, userOfAccount } from '@/db/users';
import { audit, systemActor } from './audit';

/** How long a staff invite and its set-password link stay good: better-auth's reset token lifetime (lib/auth.ts). */
export const INVITE_SECONDS = 60 * 60;

/**
 * Makes a member staff or a user again, and writes the change to the audit log: `via` says where
 * it came from (an invite of the STAFF_EMAILS list, or of `npm run user:grant-staff`).
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

/**
 * Runs once better-auth has set a password through a reset link, every earlier session of the
 * account already ended: the link reached the mailbox, so the address is proven, and an invite
 * waiting for the account (lib/staff-invite.ts) is used up and makes it staff.
 */
export async function acceptInvite(account: { id: string; email: string; name: string }): Promise<User | undefined> {
  await markEmailVerified(account.id);
  const via = await takeInvite(account.id);
  if (!via) return undefined;
  const member =
    (await userOfAccount(account.id)) ?? (await adoptAccount({ authUserId: account.id, email: account.email, name: account.name }));
  return changeRole(member, 'staff', via);
}
