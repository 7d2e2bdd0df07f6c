/** npm run db:migrate: applies migrations to DATABASE_URL (as MIGRATION_DATABASE_URL's role when set), or to the embedded database when it is unset. */
import { appDataDir, withDatabase } from './with-database';

await withDatabase(async () => {}, { dataDir: appDataDir() });
console.log('[memlens] migrations applied');
