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
    await migrateAppDatabase(url, { embedded: !external });
    return await work();
  } finally {
    await closeDb();
    await embedded?.stop();
  }
}

/**
 * Migrates the app's database as the role that owns its tables: MIGRATION_DATABASE_URL's when set,
 * DATABASE_URL's role then granted what the app needs (docs/operations.md, "Two roles"); else DATABASE_URL's own.
 */
export async function migrateAppDatabase(appUrl: string, { embedded }: { embedded: boolean }): Promise<void> {
  const ownerUrl = process.env.MIGRATION_DATABASE_URL?.trim();
  if (ownerUrl && embedded)
    throw new Error(
      'MIGRATION_DATABASE_URL is set without DATABASE_URL: the embedded database has one role. Set both (a real Postgres), or neither.',
    );
  await runMigrations(ownerUrl || appUrl, appUrl);
}
