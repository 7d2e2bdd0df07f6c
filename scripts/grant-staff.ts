/**
 * `npm run user:grant-staff -- EMAIL`: makes the member with this email staff;
 * `npm run user:grant-staff -- --revoke EMAIL`: makes them a user again.
 * On DATABASE_URL or the app's embedded data; the change is written to the audit log.
 */
import { isStaffEmail } from '../lib/auth';
import { changeRole } from '../lib/roles';
import { appDataDir, withDatabase } from './with-database';

const args = process.argv.slice(2);
const revoke = args.includes('--revoke');
const email = args.find((arg) => !arg.startsWith('--'));
if (!email?.includes('@')) {
  console.error('usage: npm run user:grant-staff -- [--revoke] EMAIL (the email of an account that has signed up)');
  process.exit(2);
}
const changed = await withDatabase(() => changeRole({ email }, revoke ? 'user' : 'staff', 'grant'), { dataDir: appDataDir() });
if (!changed) {
  console.error(`No member with the email ${email}: sign up first, then run this again.`);
  process.exit(1);
}
console.log(revoke ? `${email} is no longer staff.` : `${email} is staff now.`);
if (revoke && isStaffEmail(email))
  console.warn(
    `${email} is still listed in STAFF_EMAILS: take it off the list, or it is staff again at its next request once its address is verified.`,
  );
