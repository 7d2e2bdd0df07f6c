import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type postgres from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { closeDb } from '@/db/client';
import { startEmbeddedDatabase } from '@/db/embedded';
import { migrationsFolder, runMigrations } from '@/db/migrate';
import { setEnv } from './app';
import { newDatabaseOn } from './global-db';

/** An empty database of the run's kind (a throwaway PGlite, or a new database on the run's Postgres server), dropped or stopped by `stop`. */
export async function emptyDatabase(prefix: string, maxConnections?: number): Promise<{ url: string; stop: () => Promise<void> }> {
  if (inject('databaseKind') === 'pglite') return startEmbeddedDatabase({ dataDir: 'memory://', maxConnections });
  return newDatabaseOn(inject('databaseUrl'), prefix);
}

/**
 * Gives a test file a database of its own, for tests whose subject is every row of a table: run
 * against the shared database they would reach, and change, the rows of files running beside them.
 */
export function withOwnDatabase(): void {
  const shared = inject('databaseUrl');
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const own = await emptyDatabase('memlens_own');
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

/** Applies one migration file of db/migrations, statement by statement, as the migrator does. */
export async function applyMigration(sql: postgres.Sql, file: string): Promise<void> {
  for (const statement of readFileSync(path.join(migrationsFolder, file), 'utf8').split('--> statement-breakpoint')) {
    await sql.unsafe(statement);
  }
}

/** Applies every migration before `file`: the schema as the migration finds it. */
export async function migrateUpTo(sql: postgres.Sql, file: string): Promise<void> {
  const files = readdirSync(migrationsFolder)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  for (const name of files.slice(0, files.indexOf(file))) await applyMigration(sql, name);
}
