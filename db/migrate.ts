import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import type postgres from 'postgres';
import { openPostgres } from './postgres-url';

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any constant shared by every instance: the key of the advisory lock that serialises migrations. */
const MIGRATION_LOCK_KEY = 7_215_530_101;

/** The search sets `hnsw.iterative_scan`, which pgvector before 0.8.0 refuses. */
export const MIN_PGVECTOR = '0.8.0';

export class DatabaseVersionError extends Error {}

/**
 * Applies drizzle-kit's SQL migrations with drizzle's runtime migrator, on a short-lived single
 * connection, under a Postgres advisory lock: app instances starting at once take turns, and the
 * ones that come second find nothing left to do.
 */
export function runMigrations(databaseUrl: string): Promise<void> {
  // The embedded database has one session for all its connections, where an advisory lock is
  // re-entrant: calls in one process also wait for each other here.
  const run = (inProcess.get(databaseUrl) ?? Promise.resolve()).catch(() => {}).then(() => migrateLocked(databaseUrl));
  inProcess.set(databaseUrl, run);
  return run;
}

const inProcess = new Map<string, Promise<void>>();

async function migrateLocked(databaseUrl: string): Promise<void> {
  const sql = openPostgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await checkPgvector(sql);
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      await migrate(drizzle(sql), { migrationsFolder });
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Says clearly what is missing when the database's pgvector is absent or too old. */
async function checkPgvector(sql: postgres.Sql): Promise<void> {
  const [row] = await sql<Array<{ installed: string | null; available: string | null }>>`
    select (select extversion from pg_extension where extname = 'vector') as installed,
           (select default_version from pg_available_extensions where name = 'vector') as available`;
  const version = row?.installed ?? row?.available;
  if (!version) {
    throw new DatabaseVersionError(`This Postgres has no pgvector extension: install pgvector ${MIN_PGVECTOR} or later (see README, "Running on your own Postgres").`);
  }
  if (compareVersions(version, MIN_PGVECTOR) < 0) {
    throw new DatabaseVersionError(
      `pgvector ${version} is too old: memlens needs ${MIN_PGVECTOR} or later (its search uses hnsw.iterative_scan). Upgrade the extension (ALTER EXTENSION vector UPDATE after installing the new version).`,
    );
  }
}

/** Compares dotted version numbers ("0.10.0" > "0.8.6"). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const right = b.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
