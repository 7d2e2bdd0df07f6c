import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { unixSocketDirectory } from '../../db/postgres-url';

/**
 * The production server for a load run, as `npm start` runs it (scripts/start.ts: the embedded
 * PGlite in the launcher's process, or DATABASE_URL; then the app's server with Next behind it), detached in its own process
 * group on 127.0.0.1, on a free port and a temporary data directory, with the stub model and
 * no rate limits.
 */
export type ServerOptions = {
  stubBaseURL: string;
  /** A Postgres for the server; unset = the embedded PGlite. */
  databaseUrl?: string;
  /** Where the server's output goes (it is also read for the embedded database's URL). */
  logFile: string;
  readyTimeoutMs?: number;
  /** Settings over the ones below (a test of a limit sets that limit). */
  env?: Record<string, string>;
  /** App server processes on the one port (WEB_CONCURRENCY; default 1). */
  appProcesses?: number;
  /** Post-turn workers in processes of their own (`npm run worker`, RUN_WORKER=false on the app); needs `databaseUrl`. Default 0: the app runs its own. */
  workers?: number;
};

export type RunningServer = {
  baseUrl: string;
  /** For the checks after the run: the Postgres given, or the embedded database's Unix socket. */
  databaseUrl: string;
  database: 'pglite' | 'postgres';
  /** The process groups: the launcher's (the embedded database, the app's server processes), then one per worker process. */
  processGroups: number[];
  /** How the server ended, if it ended before stop() (killed from outside, or crashed). */
  exited: () => string | undefined;
  stop: () => Promise<void>;
};

/** The app's server serves the last `next build`; without one there is nothing to measure. */
export function assertBuilt(root = process.cwd()): void {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    throw new Error(
      `No production build in ${path.join(root, '.next')}: run \`npm run build\` first (the load bench measures the built app, as \`npm start\` serves it).`,
    );
  }
}

export async function startProductionServer(options: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-load-'));
  const pgliteDir = path.join(dataRoot, 'pglite');
  const workers = options.workers ?? 0;
  if (workers > 0 && !options.databaseUrl)
    throw new Error('Worker processes need a Postgres (DATABASE_URL): the embedded database has the app run its own.');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    APP_HOST: '127.0.0.1',
    APP_URL: baseUrl,
    PGLITE_DIR: pgliteDir,
    DATABASE_URL: options.databaseUrl ?? '',
    OPENAI_BASE_URL: options.stubBaseURL,
    OPENAI_API_KEY: 'stub',
    OPENAI_API_MODE: 'chat',
    CHAT_MODEL: 'stub',
    MEMORY_MODEL: 'stub',
    // With OFFLINE_EMBEDDER set, the server embeds with that built-in embedder instead of the stub's.
    EMBEDDING_MODEL: process.env.OFFLINE_EMBEDDER ? '' : 'stub-embed',
    BETTER_AUTH_SECRET: randomBytes(32).toString('base64url'),
    // Fifty guests from one address in a minute, and every one of their messages, are the point here.
    CHAT_RATE_LIMIT: '0',
    IMPORT_RATE_LIMIT: '0',
    CONVERSATION_RATE_LIMIT: '0',
    FACT_RATE_LIMIT: '0',
    GUESTS_PER_ADDRESS_PER_HOUR: '1000000',
    MAX_CONNECTIONS_PER_ADDRESS: '0',
    NEXT_TELEMETRY_DISABLED: '1',
    ...(options.appProcesses ? { WEB_CONCURRENCY: String(options.appProcesses) } : {}),
    ...(workers > 0 ? { RUN_WORKER: 'false' } : {}),
    ...options.env,
  };
  const log = fs.openSync(options.logFile, 'a');
  // Each in its own process group: stopping one reaches its children (Next, the database) alike.
  const launch = (script: string, ...args: string[]) =>
    spawn(process.execPath, [path.resolve('node_modules/.bin/tsx'), '--conditions=react-server', script, ...args], {
      detached: true,
      stdio: ['ignore', log, log],
      env,
    });
  const server = launch('scripts/start.ts', 'start');
  const workerProcesses = Array.from({ length: workers }, () => launch('scripts/worker.ts'));
  fs.closeSync(log);
  let ending: string | undefined;
  const exited = new Promise<number | null>((resolve) =>
    server.once('exit', (code, signal) => {
      ending = signal ? `killed by ${signal}` : `exited with code ${code}`;
      resolve(code);
    }),
  );
  for (const [i, worker] of workerProcesses.entries()) {
    worker.once('exit', (code, signal) => {
      ending ??= `worker process ${i + 1} ${signal ? `killed by ${signal}` : `exited with code ${code}`}`;
    });
  }
  // Detached, it would outlive a bench stopped by Ctrl+C: a last word on the way out.
  const stopOnExit = () => {
    for (const child of [server, ...workerProcesses]) signalGroup(child, 'SIGTERM');
  };
  process.once('exit', stopOnExit);

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      process.off('exit', stopOnExit);
      ending ??= 'stopped';
      await Promise.all(workerProcesses.map((worker) => stopGroup(worker)));
      await stopGroup(server, exited);
      fs.rmSync(dataRoot, { recursive: true, force: true });
    })());

  try {
    await waitUntilReady(baseUrl, exited, options.readyTimeoutMs ?? 90_000, options.logFile);
    await waitForWorkers(workers, options.logFile, options.readyTimeoutMs ?? 90_000);
    const databaseUrl = options.databaseUrl ?? embeddedDatabaseUrl(options.logFile);
    return {
      baseUrl,
      databaseUrl,
      database: options.databaseUrl ? 'postgres' : 'pglite',
      processGroups: [server, ...workerProcesses].map((child) => child.pid!),
      exited: () => (stopped ? undefined : ending),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilReady(baseUrl: string, exited: Promise<number | null>, timeoutMs: number, logFile: string) {
  const deadline = Date.now() + timeoutMs;
  let ended: number | null | undefined;
  void exited.then((code) => (ended = code));
  while (Date.now() < deadline) {
    if (ended !== undefined) throw new Error(`The server exited (code ${ended}) before it was ready; see ${logFile}.`);
    try {
      const response = await fetch(`${baseUrl}/api/me`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      // 401 (no cookie yet) is the answer of a server that is up.
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`The server was not ready within ${timeoutMs / 1000} s; see ${logFile}.`);
}

/** Each worker process says it runs (scripts/worker.ts) once it has migrated and started. */
async function waitForWorkers(count: number, logFile: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const running = () => fs.readFileSync(logFile, 'utf8').split('post-turn worker running').length - 1;
  while (running() < count) {
    if (Date.now() > deadline)
      throw new Error(`${count - running()} of ${count} worker processes did not start within ${timeoutMs / 1000} s; see ${logFile}.`);
    await sleep(250);
  }
}

/** SIGTERM to the process group, SIGKILL if it has not ended within 15 s. */
async function stopGroup(child: ChildProcess, exited?: Promise<unknown>) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = exited ?? new Promise((resolve) => child.once('exit', resolve));
  signalGroup(child, 'SIGTERM');
  const gone = await Promise.race([ended.then(() => true), sleep(15_000).then(() => false)]);
  if (!gone) signalGroup(child, 'SIGKILL');
}

/** The launcher prints the URL of the embedded database's Unix socket (it holds no password). */
function embeddedDatabaseUrl(logFile: string): string {
  const line = /^[^\S\n\r\u2028\u2029]*DATABASE_URL=(\S+)$/mu.exec(fs.readFileSync(logFile, 'utf8'));
  if (!line) throw new Error(`Could not find the embedded database's URL in ${logFile}.`);
  return line[1];
}

function signalGroup(server: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-server.pid!, signal);
  } catch {
    // already gone
  }
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Loopback (or a Unix socket) only: a load run never sends traffic off this machine. */
export function assertLoopback(url: string, what: string): void {
  if (unixSocketDirectory(url)) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/gu, '');
  if (!(host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/u.test(host))) {
    throw new Error(`${what} must be on this machine (127.0.0.1, localhost or ::1), not ${host}.`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
