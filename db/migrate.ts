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
const MIN_PGVECTOR = '0.8.0';

class DatabaseVersionError extends Error {}

/** The role that migrates may not: the tables belong to another (docs/operations.md, "Two roles"). */
class MigrationPrivilegeError extends Error {}

/**
 * Applies drizzle-kit's SQL migrations with drizzle's runtime migrator, on a short-lived single
 * connection to `migrationUrl` (the tables' owner), under a Postgres advisory lock: app instances
 * starting at once take turns, and the ones that come second find nothing left to do. When the app
 * connects as another role (`appUrl`'s), that role is then granted what the app needs, every time,
 * so the tables of later migrations are covered too.
 */
export function runMigrations(migrationUrl: string, appUrl = migrationUrl): Promise<void> {
  // The embedded database has one session for all its connections, where an advisory lock is
  // re-entrant: calls in one process also wait for each other here.
  const run = (inProcess.get(migrationUrl) ?? Promise.resolve()).catch(() => {}).then(() => migrateLocked(migrationUrl, roleOf(appUrl)));
  inProcess.set(migrationUrl, run);
  return run;
}

const inProcess = new Map<string, Promise<void>>();

async function migrateLocked(migrationUrl: string, appRole: string): Promise<void> {
  const sql = openPostgres(migrationUrl, { max: 1, onnotice: () => {} });
  try {
    await checkPgvector(sql);
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    try {
      await migrate(drizzle(sql), { migrationsFolder }).catch((error: unknown) => {
        throw isPermissionDenied(error)
          ? new MigrationPrivilegeError(
              `The role ${sql.options.user} may not migrate this database: set MIGRATION_DATABASE_URL to the role that owns its tables, DATABASE_URL to the app's (docs/operations.md, "Two roles").`,
              { cause: error },
            )
          : error;
      });
      const [{ migrator }] = await sql<Array<{ migrator: string }>>`select current_user as migrator`;
      if (appRole !== migrator) await grantAppRole(sql, appRole);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The role a connection string logs in as, resolved as postgres.js resolves it (PGUSER, the OS user...). */
function roleOf(databaseUrl: string): string {
  const parsed = openPostgres(databaseUrl);
  void parsed.end();
  return parsed.options.user;
}

/**
 * What the app's role may do, and no more: read and write the app's tables, only add to and read the
 * audit log, draw ids from sequences. Owning nothing, it cannot alter, empty or drop a table, nor
 * switch the audit log's trigger off; not a superuser, it cannot skip triggers
 * (`session_replication_role`). Re-run after every migration, by the tables' owner.
 */
async function grantAppRole(sql: postgres.Sql, role: string): Promise<void> {
  await sql.begin(async (tx) => {
    const [{ schema }] = await tx<Array<{ schema: string }>>`select current_schema() as schema`;
    await tx`grant usage on schema ${tx(schema)} to ${tx(role)}`;
    await tx`grant select, insert, update, delete on all tables in schema ${tx(schema)} to ${tx(role)}`;
    await tx`revoke update, delete, truncate, references, trigger on ${tx(schema)}.audit_log from ${tx(role)}`;
    await tx`grant usage, select on all sequences in schema ${tx(schema)} to ${tx(role)}`;
  });
}

/** insufficient_privilege, from Postgres or inside drizzle's wrapper. */
function isPermissionDenied(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    if ((current as Error & { code?: unknown }).code === '42501') return true;
  }
  return false;
}

/** Says clearly what is missing when the database's pgvector is absent or too old. */
async function checkPgvector(sql: postgres.Sql): Promise<void> {
  const [row] = await sql<Array<{ installed: string | null; available: string | null }>>`
    select (select extversion from pg_extension where extname = 'vector') as installed,
           (select default_version from pg_available_extensions where name = 'vector') as available`;
  const version = row?.installed ?? row?.available;
  if (!version) {
    throw new DatabaseVersionError(
      `This Postgres has no pgvector extension: install pgvector ${MIN_PGVECTOR} or later (docs/operations.md, "Your own Postgres").`,
    );
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
