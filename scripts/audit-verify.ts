/**
 * `npm run audit:verify`: recomputes the audit log's hash chain and the hashes of the members' text
 * it still keeps, on DATABASE_URL or the app's embedded data (stop the app first then). Prints the
 * head hash, which, kept somewhere else, also shows that no entry was removed from the end; exits 1
 * on any break.
 */
import { verifyAuditLog } from '../lib/services/audit-log';
import { appDataDir, withDatabase } from './with-database';

const check = await withDatabase(verifyAuditLog, { dataDir: appDataDir() });
for (const { id, problem } of check.breaks)
  console.error(
    problem === 'entry'
      ? `entry #${id}: its hash does not follow from the entry before it`
      : `entry #${id}: its text is not what it hashed`,
  );
console.log(`${check.entries} audit entries checked; head hash ${check.head ?? '(empty log)'}`);
process.exit(check.breaks.length === 0 ? 0 : 1);
