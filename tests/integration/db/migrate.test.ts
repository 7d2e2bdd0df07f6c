import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { compareVersions, runMigrations } from '@/db/migrate';
import { openPostgres } from '@/db/postgres-url';
import { emptyDatabase } from '@/tests/support/own-database';

const run = promisify(execFile);
const tsx = path.resolve('node_modules/.bin/tsx');

function migrateInAnotherProcess(url: string) {
  return run(process.execPath, [tsx, '--conditions=react-server', 'scripts/migrate.ts'], {
    env: { ...process.env, DATABASE_URL: url },
    timeout: 60_000,
  });
}

describe('migrations', () => {
  it('several instances migrating one empty database at once: all succeed, each migration applied once', { timeout: 120_000 }, async () => {
    const database = await emptyDatabase('memlens_migrate', 8);
    try {
      if (inject('databaseKind') === 'postgres') {
        // Separate processes, as app instances starting at once would be: only the advisory lock orders them.
        await Promise.all([1, 2, 3].map(() => migrateInAnotherProcess(database.url)));
      } else {
        await Promise.all([runMigrations(database.url), runMigrations(database.url), runMigrations(database.url)]);
      }
      const sql = openPostgres(database.url, { max: 1, onnotice: () => {} });
      try {
        const applied = await sql`select hash from drizzle.__drizzle_migrations`;
        expect(new Set(applied.map((row) => row.hash)).size).toBe(applied.length);
        expect(applied.length).toBeGreaterThan(5);
        const [vector] = await sql`select extversion from pg_extension where extname = 'vector'`;
        expect(compareVersions(vector.extversion, '0.8.0')).toBeGreaterThanOrEqual(0);
      } finally {
        await sql.end({ timeout: 5 });
      }
    } finally {
      await database.stop();
    }
  });

  it('compares pgvector versions numerically', () => {
    expect(compareVersions('0.10.0', '0.8.0')).toBe(1);
    expect(compareVersions('0.7.4', '0.8.0')).toBe(-1);
    expect(compareVersions('0.8', '0.8.0')).toBe(0);
  });
});
