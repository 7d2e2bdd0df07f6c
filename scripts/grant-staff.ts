/** `npm run user:grant-staff -- EMAIL`: makes the member with this email staff (on DATABASE_URL or the app's embedded data). */
import { grantStaff } from '../db/users';
import { appDataDir, withDatabase } from './with-database';

const email = process.argv[2];
if (!email || !email.includes('@')) {
  console.error('usage: npm run user:grant-staff -- EMAIL (the email of an account that has signed up)');
  process.exit(2);
}
const granted = await withDatabase(() => grantStaff(email), { dataDir: appDataDir() });
if (!granted) {
  console.error(`No member with the email ${email}: sign up first, then run this again.`);
  process.exit(1);
}
console.log(`${email} is staff now.`);
