import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { unixSocketUrl } from './postgres-url';
import { SESSION_SETTINGS } from './vector';
import { BatchAwareQueue } from './wire-queue';
import { listenTcp, type TcpListener, type TcpOptions } from './wire-tcp';

/**
 * The embedded default database: PGlite (Postgres in WASM) served over the Postgres wire protocol,
 * so the app talks to it with the same driver and SQL as to a production Postgres.
 *
 * PGlite has no lock of its own, and Next may evaluate server modules in several processes, so
 * exactly one process owns the data directory: this one, guarded by a pid lock file.
 *
 * It is served on a Unix socket inside the data directory (mode 0700), so only the directory's
 * owner can connect, as only they can read the files: no port is open and no password is needed.
 * An in-memory database (tests) gets a fresh 0700 directory of its own for its socket, and so does
 * a data directory whose path is too long for a socket's. TCP is an opt-in (`tcp`), for clients
 * elsewhere: behind a password and bounds on what an unauthenticated client may hold (wire-tcp.ts).
 * Its password is generated on the first start and kept in the data directory (`db-password`,
 * mode 0600); a throwaway in-memory database gets a fresh one.
 */
export type EmbeddedOptions = {
  /** A directory to persist to, or 'memory://' for a throwaway database (tests). */
  dataDir: string;
  maxConnections?: number;
  tcp?: TcpOptions;
};

export type EmbeddedDatabase = {
  /** For clients on this machine: the Unix socket (no password). */
  url: string;
  /** The socket's directory and the number in its name (`.s.PGSQL.<port>`): psql's -h and -p. */
  socketDir: string;
  socketPort: number;
  user: string;
  database: string;
  tcp?: {
    host: string;
    port: number;
    /** Carries the password: hand it to clients, never print it. */
    url: string;
    /** Where the password is kept; undefined for an in-memory database. */
    passwordFile?: string;
  };
  stop: () => Promise<void>;
};

const LOCK_FILE = 'memlens.lock';
const PASSWORD_FILE = 'db-password';
const USER = 'postgres';
const DATABASE = 'postgres';
const SOCKET_PORT = 5432;
const SOCKET_FILE = `.s.PGSQL.${SOCKET_PORT}`;
/** sun_path holds 108 bytes on Linux, 104 on macOS, the final NUL included. */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const inMemory = options.dataDir.startsWith('memory://');
  if (!inMemory) ownerOnlyDirectory(options.dataDir);
  const releaseLock = inMemory ? () => {} : acquireLock(options.dataDir);
  let socket: SocketPlace | undefined;
  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  let tcp: (TcpListener & { password: string; passwordFile?: string }) | undefined;
  const stopAll = async () => {
    await tcp?.stop().catch(() => {});
    await server?.stop().catch(() => {});
    await db?.close().catch(() => {});
    socket?.remove();
    releaseLock();
  };
  try {
    socket = socketPlace(inMemory ? undefined : options.dataDir);
    db = await PGlite.create(inMemory ? options.dataDir : path.resolve(options.dataDir), {
      extensions: { vector, pg_trgm, btree_gin },
    });
    // Its one session serves every connection, and it ignores startup parameters: set once here.
    for (const [name, value] of Object.entries(SESSION_SETTINGS)) await db.query('select set_config($1, $2, false)', [name, value]);
    server = new PGLiteSocketServer({ db, path: socket.path, maxConnections: options.maxConnections ?? 32 });
    // See wire-queue.ts: the stock queue interleaves pooled connections mid-batch.
    (server as unknown as { queryQueue: BatchAwareQueue }).queryQueue = new BatchAwareQueue(db);
    await server.start();
    fs.chmodSync(socket.path, 0o600);
    if (options.tcp) {
      const passwordFile = inMemory ? undefined : path.resolve(options.dataDir, PASSWORD_FILE);
      const password = passwordFile ? readOrCreatePassword(passwordFile) : newPassword();
      tcp = { ...(await listenTcp({ ...options.tcp, socketPath: socket.path, user: USER, password })), password, passwordFile };
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  let stopped: Promise<void> | undefined;
  return {
    url: unixSocketUrl({ directory: socket.dir, port: SOCKET_PORT, user: USER, database: DATABASE }),
    socketDir: socket.dir,
    socketPort: SOCKET_PORT,
    user: USER,
    database: DATABASE,
    tcp: tcp && {
      host: tcp.host,
      port: tcp.port,
      url: `postgres://${USER}:${encodeURIComponent(tcp.password)}@${tcp.host.includes(':') ? `[${tcp.host}]` : tcp.host}:${tcp.port}/${DATABASE}`,
      passwordFile: tcp.passwordFile,
    },
    stop: () => (stopped ??= stopAll()),
  };
}

type SocketPlace = { dir: string; path: string; remove: () => void };

/**
 * The socket goes in the data directory; an in-memory database, or a data directory too deep for
 * a socket path, gets a new 0700 directory in the system's temporary directory, removed at stop.
 */
function socketPlace(dataDir: string | undefined): SocketPlace {
  const fits = (dir: string) => Buffer.byteLength(path.join(dir, SOCKET_FILE)) <= MAX_SOCKET_PATH_BYTES;
  if (dataDir && fits(path.resolve(dataDir))) {
    const dir = path.resolve(dataDir);
    const socketPath = path.join(dir, SOCKET_FILE);
    removeStaleSocket(socketPath); // ours to remove: this process holds the directory's lock
    return { dir, path: socketPath, remove: () => removeStaleSocket(socketPath) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-db-')); // mkdtemp makes it 0700
  if (!fits(dir)) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `The embedded database's socket path ${path.join(dir, SOCKET_FILE)} is over ${MAX_SOCKET_PATH_BYTES} bytes: set TMPDIR to a shorter directory.`,
    );
  }
  return { dir, path: path.join(dir, SOCKET_FILE), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

function removeStaleSocket(socketPath: string): void {
  try {
    if (fs.lstatSync(socketPath).isSocket()) fs.rmSync(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
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
