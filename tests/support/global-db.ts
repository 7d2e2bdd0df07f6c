import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase } from '../../db/embedded';
import { runMigrations } from '../../db/migrate';
import { openPostgres } from '../../db/postgres-url';

/**
 * The database of one run: for the `pglite` project a throwaway embedded Postgres, reached over the
 * wire like the app reaches it; for the `postgres` project (only when TEST_DATABASE_URL is set) a
 * fresh database created on that server for this run and dropped after it.
 */
export default async function setup(project: TestProject) {
  const database =
    project.name === 'postgres'
      ? await freshDatabase(requiredUrl())
      : await startEmbeddedDatabase({ dataDir: 'memory://', maxConnections: 64 });
  await runMigrations(database.url);
  project.provide('databaseUrl', database.url);
  project.provide('databaseKind', project.name === 'postgres' ? 'postgres' : 'pglite');
  return () => database.stop();
}

function requiredUrl(): string {
  const url = process.env.TEST_DATABASE_URL?.trim();
  if (!url) throw new Error('The postgres test project needs TEST_DATABASE_URL (a role that may create databases).');
  return url;
}

/** A new database on the server of `serverUrl` (whose role may create databases), with the extensions memlens needs. */
async function freshDatabase(serverUrl: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const database = await newDatabaseOn(serverUrl, 'memlens_test');
  const created = openPostgres(database.url, { max: 1, onnotice: () => {} });
  await created.unsafe('create extension if not exists vector; create extension if not exists pg_trgm;');
  await created.end({ timeout: 5 });
  return database;
}

/** An empty database named `prefix_…` on the server of `serverUrl`, dropped by `stop`. */
export async function newDatabaseOn(serverUrl: string, prefix: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = openPostgres(serverUrl, { max: 1, onnotice: () => {} });
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

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: 'pglite' | 'postgres';
  }
}
