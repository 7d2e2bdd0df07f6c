import postgres from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { closeDb } from '@/db/client';
import { startEmbeddedDatabase } from '@/db/embedded';
import { runMigrations } from '@/db/migrate';
import { setEnv } from './app';

/**
 * Gives a test file a database of its own, of the run's kind (a throwaway PGlite, or a new database on
 * the run's Postgres server), for tests whose subject is every row of a table: run against the
 * shared database they would reach, and change, the rows of files running beside them.
 */
export function useOwnDatabase(): void {
  const shared = inject('databaseUrl');
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const own = inject('databaseKind') === 'postgres' ? await newPostgresDatabase(shared) : await startEmbeddedDatabase({ dataDir: 'memory://', port: 0 });
    stop = own.stop;
    await runMigrations(own.url);
    await closeDb();
    setEnv({ DATABASE_URL: own.url });
  });
  afterAll(async () => {
    await closeDb();
    setEnv({ DATABASE_URL: shared });
    await stop?.();
  });
}

async function newPostgresDatabase(serverUrl: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const name = `memlens_own_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    stop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
