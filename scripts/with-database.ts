import { closeDb } from '../db/client';
import { startEmbeddedDatabase } from '../db/embedded';
import { runMigrations } from '../db/migrate';

/**
 * For command-line tools: use DATABASE_URL when set, else a throwaway in-memory embedded database
 * (migrated), so a script never touches the app's data directory while the app may be running.
 */
export async function withDatabase<T>(work: () => Promise<T>): Promise<T> {
  const external = process.env.DATABASE_URL?.trim();
  const embedded = external ? undefined : await startEmbeddedDatabase({ dataDir: 'memory://', port: 0 });
  const url = external || embedded!.url;
  process.env.DATABASE_URL = url;
  try {
    await runMigrations(url);
    return await work();
  } finally {
    await closeDb();
    await embedded?.stop();
  }
}
