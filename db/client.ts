import 'server-only';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import type postgres from 'postgres';
import { openPostgres } from './postgres-url';
import * as schema from './schema';
import { databaseSettings } from './settings';
import { VECTOR_SESSION_SETTINGS } from './vector';

export type Db = PostgresJsDatabase<typeof schema>;

type Pool = { sql: postgres.Sql; db: Db; url: string };

// Next's dev server re-evaluates modules on every edit; one pool per process, kept on globalThis.
const holder = globalThis as typeof globalThis & { __memlensPool?: Pool };

/** The app's only database handle: postgres.js with a pool, on DATABASE_URL. Opened on first use, never at build time. */
export function getDb(): Db {
  return pool().db;
}

export function getSql(): postgres.Sql {
  return pool().sql;
}

function pool(): Pool {
  const { DATABASE_URL, DB_POOL_MAX } = databaseSettings();
  if (!DATABASE_URL) {
    throw new Error(
      'DATABASE_URL is not set. Start the app with `npm start` / `npm run dev`, which launch the embedded database, or point DATABASE_URL at a Postgres with pgvector.',
    );
  }
  if (holder.__memlensPool?.url === DATABASE_URL) return holder.__memlensPool;
  const sql = openPostgres(DATABASE_URL, { max: DB_POOL_MAX, onnotice: () => {}, connection: VECTOR_SESSION_SETTINGS });
  holder.__memlensPool = { sql, db: drizzle(sql, { schema }), url: DATABASE_URL };
  return holder.__memlensPool;
}

export async function closeDb(): Promise<void> {
  const current = holder.__memlensPool;
  holder.__memlensPool = undefined;
  await current?.sql.end({ timeout: 5 });
}
