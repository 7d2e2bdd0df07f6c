import { pendingInvite, putInvite, takeInvite } from '@/db/staff-invites';
import { type StaffSource, userOfAccount } from '@/db/users';
import { getAuth } from './auth';
import { INVITE_SECONDS } from './roles';

/**
 * Staff are invited, never made by signing up or verifying: an address anyone can sign up with
 * proves nothing until its mailbox answers. An invite mails better-auth's own reset-password link (a
 * single-use token that reaches only the mailbox); setting a password through it ends every earlier
 * session of the account and replaces any password set before, and only then is the account staff
 * (`acceptInvite` in lib/roles.ts). An account someone else made first with that address is taken
 * over so: their sessions end and their password no longer works.
 */
type InviteOutcome = 'invited' | 'already_staff' | 'pending';

/**
 * Invites `email` to be staff (`via`: the STAFF_EMAILS list at start-up, or `npm run user:grant-staff`),
 * making the account when there is none. With `resend: false` an invite still pending is left alone,
 * so a restart does not mail the listed addresses again.
 */
export async function inviteStaff(email: string, via: StaffSource, { resend = true } = {}): Promise<InviteOutcome> {
  const address = email.trim().toLowerCase();
  const auth = getAuth();
  const { internalAdapter } = await auth.$context;
  const found = await internalAdapter.findUserByEmail(address);
  const account =
    found?.user ??
    (await internalAdapter.createUser({ email: address, name: address.split('@')[0], emailVerified: false }, { method: 'admin' }));
  if ((await userOfAccount(account.id))?.role === 'staff') return 'already_staff';
  if (!resend && (await pendingInvite(account.id))) return 'pending';
  await putInvite(account.id, via, new Date(Date.now() + INVITE_SECONDS * 1000));
  try {
    await auth.api.requestPasswordReset({ body: { email: address, redirectTo: '/reset-password' } });
  } catch (error) {
    // Not mailed, not pending: the next start (resend: false) must try again.
    await takeInvite(account.id);
    throw error;
  }
  return 'invited';
}

/** Withdraws an invite still waiting for `email` (its link then sets a password and nothing more); whether there was one. */
export async function withdrawInvite(email: string): Promise<boolean> {
  const found = await (await getAuth().$context).internalAdapter.findUserByEmail(email.trim().toLowerCase());
  return found ? (await takeInvite(found.user.id)) !== undefined : false;
}
