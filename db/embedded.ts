import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { VECTOR_SESSION_SETTINGS } from './vector';
import { PasswordGate } from './wire-auth';
import { BatchAwareQueue } from './wire-queue';

/**
 * The embedded default database: PGlite (Postgres in WASM) served over the Postgres wire protocol
 * on 127.0.0.1, so the app talks to it with the same driver and SQL as to a production Postgres.
 *
 * PGlite has no lock of its own, and Next may evaluate server modules in several processes, so
 * exactly one process owns the data directory: this one, guarded by a pid lock file.
 *
 * Only clients that know the password get in (SCRAM-SHA-256, see wire-auth.ts): another local
 * process or user cannot read the data. The password is generated on the first start and kept in
 * the data directory (`db-password`, mode 0600); a throwaway in-memory database gets a fresh one.
 */
export type EmbeddedOptions = {
  /** A directory to persist to, or 'memory://' for a throwaway database (tests). */
  dataDir: string;
  host?: string;
  /** 0 lets the OS pick a free port. */
  port?: number;
  maxConnections?: number;
};

export type EmbeddedDatabase = {
  /** Carries the password: hand it to clients, never print it. */
  url: string;
  host: string;
  port: number;
  user: string;
  database: string;
  /** Where the password is kept; undefined for an in-memory database. */
  passwordFile?: string;
  stop: () => Promise<void>;
};

const LOCK_FILE = 'memlens.lock';
const PASSWORD_FILE = 'db-password';
const USER = 'postgres';
const DATABASE = 'postgres';

export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const host = options.host ?? '127.0.0.1';
  const inMemory = options.dataDir.startsWith('memory://');
  if (!inMemory) ownerOnlyDirectory(options.dataDir);
  const releaseLock = inMemory ? () => {} : acquireLock(options.dataDir);
  const passwordFile = inMemory ? undefined : path.resolve(options.dataDir, PASSWORD_FILE);
  let password = '';
  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    password = passwordFile ? readOrCreatePassword(passwordFile) : newPassword();
    db = await PGlite.create(inMemory ? options.dataDir : path.resolve(options.dataDir), {
      extensions: { vector, pg_trgm, btree_gin },
    });
    // Its one session serves every connection, and it ignores startup parameters: set once here.
    for (const [name, value] of Object.entries(VECTOR_SESSION_SETTINGS)) await db.query('select set_config($1, $2, false)', [name, value]);
    server = new PGLiteSocketServer({
      db,
      host,
      port: options.port ?? 0,
      maxConnections: options.maxConnections ?? 32,
    });
    // See wire-queue.ts: the stock queue interleaves pooled connections mid-batch, and checks no password.
    const queue = new BatchAwareQueue(db, new PasswordGate(USER, password));
    (server as unknown as { queryQueue: BatchAwareQueue }).queryQueue = queue;
    await server.start();
  } catch (error) {
    await server?.stop().catch(() => {});
    await db?.close().catch(() => {});
    releaseLock();
    throw error;
  }

  const port = Number(server.getServerConn().split(':').pop());
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await server!.stop();
      await db!.close();
      releaseLock();
    })());

  const url = `postgres://${USER}:${encodeURIComponent(password)}@${host}:${port}/${DATABASE}`;
  return { url, host, port, user: USER, database: DATABASE, passwordFile, stop };
}

const newPassword = () => randomBytes(24).toString('base64url');

/** Kept across restarts so clients configured once keep working; readable by the owner only. */
function readOrCreatePassword(file: string): string {
  try {
    fs.writeFileSync(file, newPassword(), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  fs.chmodSync(file, 0o600);
  const password = fs.readFileSync(file, 'utf8').trim();
  if (!password) throw new Error(`${file} is empty: delete it and start again to generate a new password.`);
  return password;
}

/** The files are the whole database: readable by the owner only, as Postgres requires of its data directory. */
function ownerOnlyDirectory(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
}

/** Refuses to open a data directory that a live process already owns; takes over a stale lock. */
function acquireLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, LOCK_FILE);
  const tryCreate = () => {
    fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
  };
  try {
    tryCreate();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number(fs.readFileSync(lockPath, 'utf8'));
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new Error(
        `The embedded database at ${dataDir} is already open in process ${owner}. Stop it first, or set PGLITE_DIR to another directory.`,
      );
    }
    fs.rmSync(lockPath, { force: true });
    tryCreate();
  }
  return () => {
    try {
      if (Number(fs.readFileSync(lockPath, 'utf8')) === process.pid) fs.rmSync(lockPath);
    } catch {
      // already gone
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A process killed with its parent stays a zombie until someone reaps it, and in a container whose
 * first process never reaps, that is forever: it still answers kill(pid, 0) but owns nothing.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false; // no /proc (not Linux): trust kill(pid, 0)
  }
}
