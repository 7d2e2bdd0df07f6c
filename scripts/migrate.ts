/** npm run db:migrate: applies migrations to DATABASE_URL, or to the embedded database when it is unset. */
import { appDataDir, withDatabase } from './with-database';

await withDatabase(async () => {}, { dataDir: appDataDir() });
console.log('[memlens] migrations applied');
