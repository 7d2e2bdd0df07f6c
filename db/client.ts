import 'server-only';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import type postgres from 'postgres';
import { openPostgres } from './postgres-url';
import * as schema from './schema';
import { databaseSettings } from './settings';
import { SESSION_SETTINGS } from './vector';

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
  const sql = openPostgres(DATABASE_URL, { max: DB_POOL_MAX, onnotice: () => {}, connection: SESSION_SETTINGS });
  holder.__memlensPool = { sql, db: drizzle(preparingStatements(sql), { schema }), url: DATABASE_URL };
  return holder.__memlensPool;
}

/**
 * The pool as drizzle gets it: every statement it sends is prepared on its connection. drizzle sends
 * its queries with postgres.js's `unsafe`, unprepared unless named; unprepared, each statement with
 * parameters costs two round trips (describe, then execute) and a parse every time. Prepared, it is
 * described and parsed once per connection and then sent as one message (still planned for its
 * parameters on every run: SESSION_SETTINGS). Transactions hand drizzle a client of their own, so
 * they are wrapped alike.
 */
function preparingStatements(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, key, receiver) {
      if (key === 'unsafe') {
        return (query: string, parameters?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(query, parameters, { ...options, prepare: true });
      }
      if (key === 'begin' || key === 'savepoint') {
        return (...args: unknown[]) => {
          const work = args.pop() as (client: postgres.Sql) => unknown;
          const run = Reflect.get(target, key, target) as (...a: unknown[]) => unknown;
          return run.apply(target, [...args, (client: postgres.Sql) => work(preparingStatements(client))]);
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

export async function closeDb(): Promise<void> {
  const current = holder.__memlensPool;
  holder.__memlensPool = undefined;
  await current?.sql.end({ timeout: 5 });
}
