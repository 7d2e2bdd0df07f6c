import { closeDb } from '../db/client';
import { startEmbeddedDatabase } from '../db/embedded';
import { runMigrations } from '../db/migrate';

export { appDataDir } from './data-dir';

/**
 * For command-line tools: use DATABASE_URL when set, else an embedded database — by default a
 * throwaway in-memory one, so a benchmark never touches the app's data directory — migrated first.
 */
export async function withDatabase<T>(work: () => Promise<T>, options: { dataDir?: string } = {}): Promise<T> {
  const external = process.env.DATABASE_URL?.trim();
  const embedded = external ? undefined : await startEmbeddedDatabase({ dataDir: options.dataDir ?? 'memory://' });
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

