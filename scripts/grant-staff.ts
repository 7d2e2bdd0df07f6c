/**
 * `npm run user:grant-staff -- EMAIL`: invites EMAIL to be staff. It mails the address a link to
 * choose a password (through SMTP_URL, or printed here without it); once it is used, every earlier
 * session of the account has ended and the account is staff. An account is made for the address
 * when it has none. `npm run user:grant-staff -- --revoke EMAIL`: makes that member a user again, and
 * withdraws an invite still waiting.
 * On DATABASE_URL or the app's embedded data; role changes are written to the audit log.
 */
import { isStaffEmail } from '../lib/auth';
import { changeRole } from '../lib/roles';
import { inviteStaff, withdrawInvite } from '../lib/staff-invite';
import { authSecretFor } from './auth-secret';
import { appDataDir, withDatabase } from './with-database';

const args = process.argv.slice(2);
const revoke = args.includes('--revoke');
const email = args.find((arg) => !arg.startsWith('--'));
if (!email?.includes('@')) {
  console.error('usage: npm run user:grant-staff -- [--revoke] EMAIL');
  process.exit(2);
}
if (revoke) {
  const { changed, withdrawn } = await withDatabase(
    async () => ({ withdrawn: await withdrawInvite(email), changed: await changeRole({ email }, 'user', 'grant') }),
    { dataDir: appDataDir() },
  );
  if (!changed && !withdrawn) {
    console.error(`No member or invite with the email ${email}.`);
    process.exit(1);
  }
  console.log(changed ? `${email} is no longer staff.` : `The invite of ${email} is withdrawn.`);
  if (isStaffEmail(email))
    console.warn(`${email} is still listed in STAFF_EMAILS: take it off the list, or the next start invites it again.`);
} else {
  // The same secret the app signs its sessions with (scripts/start.ts), for the auth library this uses.
  if (!process.env.BETTER_AUTH_SECRET?.trim()) process.env.BETTER_AUTH_SECRET = authSecretFor(appDataDir());
  const outcome = await withDatabase(() => inviteStaff(email, 'grant'), { dataDir: appDataDir() });
  console.log(
    outcome === 'already_staff'
      ? `${email} is staff already.`
      : `${email} is invited: the link to choose a password was mailed (printed above without SMTP_URL) and lasts an hour. The account is staff once it is used.`,
  );
}
