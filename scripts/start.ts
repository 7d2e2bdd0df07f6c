/**
 * Starts the app: `tsx scripts/start.ts start|dev` (npm start / npm run dev), or only the
 * embedded database: `tsx scripts/start.ts db` (npm run db:serve).
 *
 * With DATABASE_URL set, it migrates that database and starts Next. Without it, this process
 * launches the embedded PGlite server first, becomes the one owner of its data directory, migrates
 * it over the wire and hands Next its DATABASE_URL; on SIGINT/SIGTERM it stops Next, then the database.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { closeDb } from '../db/client';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded';
import { recoverInterruptedReplies } from '../db/history';
import { releaseOrphanedImports } from '../db/imports';
import { releaseOrphanedJobs } from '../db/jobs';
import { runMigrations } from '../db/migrate';
import { logError } from '../lib/log';
import { startNext, type NextProcesses } from './next-processes';
import { appDataDir } from './with-database';

const mode = process.argv[2] ?? 'start';
if (!['start', 'dev', 'db'].includes(mode)) {
  console.error(`usage: tsx scripts/start.ts start|dev|db (got "${mode}")`);
  process.exit(2);
}

// Several Next processes only for production: `next dev` watches and rebuilds, one is enough.
const nextProcessCount = mode === 'start' ? webConcurrency() : 1;
let embedded: EmbeddedDatabase | undefined;
let app: NextProcesses | undefined;
let shuttingDown = false;

async function main() {
  let databaseUrl = process.env.DATABASE_URL?.trim();
  if (!databaseUrl) {
    const dataDir = appDataDir();
    const started = Date.now();
    embedded = await startEmbeddedDatabase({
      dataDir,
      host: process.env.PGLITE_HOST || '127.0.0.1',
      port: Number(process.env.PGLITE_PORT ?? 54329),
      maxConnections: Number(process.env.PGLITE_MAX_CONNECTIONS ?? 32),
    });
    databaseUrl = embedded.url; // carries the password: handed to Next in its environment, never printed
    console.log(`[memlens] embedded database (${dataDir}) ready on ${embedded.host}:${embedded.port} in ${Date.now() - started} ms`);
    console.log(connectionHelp(embedded));
  }
  await runMigrations(databaseUrl);
  console.log('[memlens] migrations applied');
  process.env.DATABASE_URL = databaseUrl;
  // Replies a dead process left `streaming` (no progress saved for two minutes) become incomplete, text kept.
  const recovered = await recoverInterruptedReplies(embedded ? 0 : 120);
  // The embedded database is this process's alone: a job still `running` was cut off by a crash.
  // (On a shared Postgres, another instance may be running it: its lease decides.)
  const released = embedded ? await releaseOrphanedJobs() : 0;
  const resumed = embedded ? await releaseOrphanedImports() : 0;
  await closeDb();
  if (recovered) console.log(`[memlens] marked ${recovered} interrupted replies incomplete`);
  if (released) console.log(`[memlens] ${released} post-turn jobs cut off by a crash are due again`);
  if (resumed) console.log(`[memlens] ${resumed} imports cut off by a crash resume where they stopped`);

  if (mode === 'db') {
    console.log('[memlens] serving the database only; Ctrl+C to stop');
    return;
  }
  ensureAuthSecret();
  app = startNext({
    args: [mode, '--port', process.env.PORT || '3000', '--hostname', process.env.APP_HOST || '127.0.0.1'],
    env: { ...process.env, DATABASE_URL: databaseUrl },
    count: nextProcessCount,
    onExit: (code) => void shutdown(code),
  });
}

/** WEB_CONCURRENCY: how many Next server processes `npm start` runs (default 1), checked before anything starts. */
function webConcurrency(): number {
  const raw = process.env.WEB_CONCURRENCY?.trim();
  if (!raw) return 1;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 64) {
    console.error(`[memlens] WEB_CONCURRENCY must be a whole number from 1 to 64 (got "${raw}")`);
    process.exit(2);
  }
  return count;
}

/** How to reach the embedded database by hand: where the password is, never the password itself. */
function connectionHelp({ host, port, user, database, passwordFile }: EmbeddedDatabase): string {
  const relative = path.relative(process.cwd(), passwordFile!);
  const file = relative.startsWith('..') || path.isAbsolute(relative) ? passwordFile! : relative;
  return [
    `[memlens] connect as user ${user} to database ${database} on ${host}:${port}; the password is in ${file} (readable by you only):`,
    `  PGPASSWORD="$(cat ${file})" psql -h ${host} -p ${port} -U ${user} ${database}`,
  ].join('\n');
}

/**
 * Accounts need a secret to sign session cookies. Unset, one is generated on the first start and
 * kept beside the data (`.data/auth-secret`, mode 0600), so sessions survive restarts.
 */
function ensureAuthSecret() {
  if (process.env.BETTER_AUTH_SECRET?.trim()) return;
  const file = path.join(path.dirname(path.resolve(appDataDir())), 'auth-secret');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  process.env.BETTER_AUTH_SECRET = readFileSync(file, 'utf8').trim();
}

async function shutdown(exitCode: number) {
  if (shuttingDown) return;
  shuttingDown = true;
  await app?.stop();
  if (embedded) {
    await embedded.stop();
    console.log('[memlens] embedded database stopped cleanly');
  }
  process.exit(exitCode);
}

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

main().catch(async (error) => {
  logError('failed to start', error);
  await shutdown(1);
});
