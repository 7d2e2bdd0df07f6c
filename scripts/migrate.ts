/** npm run db:migrate: applies migrations to DATABASE_URL, or to the embedded database when it is unset. */
import { startEmbeddedDatabase } from '../db/embedded';
import { runMigrations } from '../db/migrate';

const url = process.env.DATABASE_URL?.trim();
if (url) {
  await runMigrations(url);
} else {
  const embedded = await startEmbeddedDatabase({ dataDir: process.env.PGLITE_DIR || '.data/pglite' });
  try {
    await runMigrations(embedded.url);
  } finally {
    await embedded.stop();
  }
}
console.log('[memlens] migrations applied');
