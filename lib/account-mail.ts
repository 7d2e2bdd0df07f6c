import { createHash } from 'node:crypto';
import { pendingInvite } from '@/db/staff-invites';
import { clientAddress } from './client-address';
import { isDomainError } from './errors';
import { sendMail } from './mail';
import { enforceRateLimit } from './rate-limit';

/** The mails better-auth asks for (lib/auth.ts), each a link with a line of text around it. */

type Account = { id: string; email: string };

export const sendVerificationMail = ({ user, url }: { user: Account; url: string }) =>
  sendMail({ to: user.email, subject: 'Verify your memlens email', text: `To verify this address for memlens, open ${url}`, link: url });

/** A reset link, worded as a staff invite when the account has one waiting (the same link sets the password). */
export async function sendResetMail({ user, url }: { user: Account; url: string }): Promise<void> {
  if (await pendingInvite(user.id)) {
    await sendMail({
      to: user.email,
      subject: 'You are invited to be memlens staff',
      text: `To choose your password and become staff, open ${url}\nEvery earlier session of this account ends when you do.`,
      link: url,
    });
    return;
  }
  await sendMail({
    to: user.email,
    subject: 'Reset your memlens password',
    text: `To choose a new password, open ${url}\nIf you did not ask for this, ignore this mail.`,
    link: url,
  });
}

/**
 * Sign-up with an address that already has an account answers as a new sign-up does (no one learns
 * which addresses have accounts); the owner gets this note instead, at most ACCOUNT_MAILS_PER_ADDRESS
 * of them (and of verification links) per window, so the form cannot be used to flood a mailbox.
 */
export async function sendExistingAccountNote(user: Account, appUrl: string, request?: Request): Promise<void> {
  if (!(await withinMailLimits(user.email, request?.headers))) return;
  const url = `${appUrl}/forgot-password`;
  await sendMail({
    to: user.email,
    subject: 'Someone tried to create a memlens account with your email',
    text: `This address already has a memlens account. If that was you, sign in, or choose a new password at ${url}\nIf it was not, ignore this mail: nothing changed.`,
    link: url,
  });
}

/**
 * Counts one account mail to `email` and from the caller's client address (as the app's server
 * resolved it); throws `rate_limited` with the wait once either is spent.
 */
export async function countAccountMail(email: string, headers: Headers | undefined): Promise<void> {
  await enforceRateLimit('mail-to-address', createHash('sha256').update(email.trim().toLowerCase()).digest('hex'));
  const from = headers ? clientAddress(headers) : null;
  if (from) await enforceRateLimit('mail-from-client', from);
}

async function withinMailLimits(email: string, headers: Headers | undefined): Promise<boolean> {
  try {
    await countAccountMail(email, headers);
    return true;
  } catch (error) {
    if (isDomainError(error) && error.code === 'rate_limited') return false;
    throw error;
  }
}
