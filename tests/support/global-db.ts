import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase } from '../../db/embedded';
import { runMigrations } from '../../db/migrate';

/** One throwaway embedded Postgres for the whole run, reached over the wire like the app reaches it. */
export default async function setup(project: TestProject) {
  const database = await startEmbeddedDatabase({ dataDir: 'memory://', port: 0, maxConnections: 64 });
  await runMigrations(database.url);
  project.provide('databaseUrl', database.url);
  return () => database.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
