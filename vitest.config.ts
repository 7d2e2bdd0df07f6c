import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// Two kinds of test file. tests/unit/ needs no database and starts no server: the `fast` project runs it
// once, in seconds (`npm run test:fast`). tests/integration/ talks to a database: it runs on the embedded
// PGlite and, when TEST_DATABASE_URL names a real Postgres, on it too (tests/support/global-db.ts gives
// each of those projects its own database).
const databases = process.env.TEST_DATABASE_URL?.trim() ? ['pglite', 'postgres'] : ['pglite'];
// Tests of the embedded database itself start their own; run once, not again beside a real Postgres.
const embeddedOnly = ['tests/integration/db/embedded-*.test.ts'];

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // db/ modules refuse to load outside the server (Next's bundler); tests are the server.
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two workers even on two cores: most of a file's time is waiting on a database, a stream or a
    // timer. The PGlite and Postgres projects run side by side; within each, one file at a time
    // (below), as files share their project's database and some run every user's due jobs.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'fast', include: ['tests/unit/**/*.test.ts'], setupFiles: ['tests/support/env.ts'] },
      },
      ...databases.map((name) => ({
        extends: true as const,
        test: {
          name,
          include: ['tests/integration/**/*.test.ts', 'lib/**/*.test.ts', 'db/**/*.test.ts'],
          exclude: name === 'postgres' ? [...configDefaults.exclude, ...embeddedOnly] : configDefaults.exclude,
          fileParallelism: false,
          globalSetup: ['tests/support/global-db.ts'],
          setupFiles: ['tests/support/env.ts', 'tests/support/database-env.ts'],
        },
      })),
    ],
  },
});
