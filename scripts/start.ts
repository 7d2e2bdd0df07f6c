/**
 * Starts the app: `tsx scripts/start.ts start|dev` (npm start / npm run dev), or only the
 * embedded database: `tsx scripts/start.ts db` (npm run db:serve).
 *
 * With DATABASE_URL set, it migrates that database (as MIGRATION_DATABASE_URL's role when set) and
 * starts Next. Without it, this process launches the embedded PGlite server first, becomes the one
 * owner of its data directory, migrates it over the wire and hands Next its DATABASE_URL; on
 * SIGINT/SIGTERM it stops Next, then the database.
 */
import path from 'node:path';
import { closeDb } from '../db/client';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../db/embedded';
import { recoverInterruptedReplies } from '../db/history';
import { releaseOrphanedImports } from '../db/imports';
import { releaseOrphanedJobs } from '../db/jobs';
import { getConfig } from '../lib/config';
import { logError } from '../lib/log';
import { inviteStaff } from '../lib/staff-invite';
import { authSecretFor } from './auth-secret';
import { type NextProcesses, startNext } from './next-processes';
import { appDataDir, migrateAppDatabase } from './with-database';

const mode = (process.argv[2] ?? 'start') as 'start' | 'dev' | 'db';
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
      maxConnections: Number(process.env.PGLITE_MAX_CONNECTIONS ?? 32),
      tcp: tcpOptIn(),
    });
    databaseUrl = embedded.url; // the Unix socket: no password in it
    console.log(`[memlens] embedded database (${dataDir}) ready on a Unix socket in ${embedded.socketDir} in ${Date.now() - started} ms`);
    console.log(connectionHelp(embedded, dataDir));
  }
  await migrateAppDatabase(databaseUrl, { embedded: embedded !== undefined });
  console.log('[memlens] migrations applied');
  // The owner's credentials stay with this launcher: Next's processes (spawned or forked, which
  // inherit this environment) run as the app's role only.
  delete process.env.MIGRATION_DATABASE_URL;
  process.env.DATABASE_URL = databaseUrl;
  // Replies a dead process left `streaming` (no progress saved for two minutes) become incomplete, text kept.
  const recovered = await recoverInterruptedReplies(embedded ? 0 : 120);
  // The embedded database is this process's alone: a job still `running` was cut off by a crash.
  // (On a shared Postgres, another instance may be running it: its lease decides.)
  const released = embedded ? await releaseOrphanedJobs() : 0;
  const resumed = embedded ? await releaseOrphanedImports() : 0;
  if (!process.env.BETTER_AUTH_SECRET?.trim()) process.env.BETTER_AUTH_SECRET = authSecretFor(appDataDir());
  if (mode !== 'db') await inviteListedStaff();
  await closeDb();
  if (recovered) console.log(`[memlens] marked ${recovered} interrupted replies incomplete`);
  if (released) console.log(`[memlens] ${released} post-turn jobs cut off by a crash are due again`);
  if (resumed) console.log(`[memlens] ${resumed} imports cut off by a crash resume where they stopped`);

  if (mode === 'db') {
    console.log('[memlens] serving the database only; Ctrl+C to stop');
    return;
  }
  app = startNext({
    mode,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    count: nextProcessCount,
    onExit: (code) => void shutdown(code),
  });
}

/**
 * STAFF_EMAILS are invited, not made staff by signing up: each listed address that is not staff yet
 * and has no invite waiting is mailed a set-password link (lib/staff-invite.ts).
 */
async function inviteListedStaff(): Promise<void> {
  for (const email of getConfig().STAFF_EMAILS) {
    if ((await inviteStaff(email, 'STAFF_EMAILS', { resend: false })) === 'invited')
      console.log(`[memlens] invited ${email} to be staff (STAFF_EMAILS)`);
  }
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

/**
 * TCP is an opt-in: PGLITE_PORT (0 picks a free port) on PGLITE_HOST (default 127.0.0.1), for
 * clients that cannot reach the socket (another container or machine). Checked before anything starts.
 */
function tcpOptIn(): { host: string; port: number } | undefined {
  const rawPort = process.env.PGLITE_PORT?.trim();
  const host = process.env.PGLITE_HOST?.trim();
  if (!rawPort) {
    if (host) fail(`PGLITE_HOST (${host}) takes effect only with PGLITE_PORT: set PGLITE_PORT to serve the embedded database on TCP too.`);
    return undefined;
  }
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PGLITE_PORT must be a port number from 0 to 65535 (got "${rawPort}")`);
  return { host: host || '127.0.0.1', port };
}

/** How to reach the embedded database by hand: the socket, and for TCP where the password is, never the password itself. */
function connectionHelp({ url, socketDir, socketPort, user, database, tcp }: EmbeddedDatabase, dataDir: string): string {
  const lines = [
    `[memlens] connect as user ${user} to database ${database} (only your user can reach the socket):`,
    `  psql -h ${shellWord(socketDir)} -p ${socketPort} -U ${user} ${database}`,
    `  DATABASE_URL=${url}`,
  ];
  if (socketDir !== path.resolve(dataDir)) {
    lines.push(
      `[memlens] the data directory's path is too long for a Unix socket, so the socket is in ${socketDir} (mode 0700, removed at stop)`,
    );
  }
  if (tcp) {
    const relative = path.relative(process.cwd(), tcp.passwordFile!);
    const file = shellWord(relative.startsWith('..') || path.isAbsolute(relative) ? tcp.passwordFile! : relative);
    lines.push(
      `[memlens] also on TCP ${tcp.host}:${tcp.port}, for clients that prove the password in ${file} (readable by you only):`,
      `  PGPASSWORD="$(cat ${file})" psql -h ${tcp.host} -p ${tcp.port} -U ${user} ${database}`,
    );
  }
  return lines.join('\n');
}

/** A path as one shell word: quoted only when it has to be. */
const shellWord = (text: string) => (/^[\w./@%+:-]+$/u.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

function fail(message: string): never {
  console.error(`[memlens] ${message}`);
  process.exit(2);
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
