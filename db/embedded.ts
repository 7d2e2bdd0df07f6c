import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { BatchAwareQueue } from './wire-queue';

/**
 * The embedded default database: PGlite (Postgres in WASM) served over the Postgres wire protocol
 * on 127.0.0.1, so the app talks to it with the same driver and SQL as to a production Postgres.
 *
 * PGlite has no lock of its own, and Next may evaluate server modules in several processes, so
 * exactly one process owns the data directory: this one, guarded by a pid lock file.
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
  url: string;
  port: number;
  stop: () => Promise<void>;
};

const LOCK_FILE = 'memlens.lock';

export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const host = options.host ?? '127.0.0.1';
  const inMemory = options.dataDir.startsWith('memory://');
  const releaseLock = inMemory ? () => {} : acquireLock(options.dataDir);

  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    db = await PGlite.create(inMemory ? options.dataDir : path.resolve(options.dataDir), {
      extensions: { vector, pg_trgm },
    });
    server = new PGLiteSocketServer({
      db,
      host,
      port: options.port ?? 0,
      maxConnections: options.maxConnections ?? 32,
    });
    // See wire-queue.ts: the stock queue interleaves pooled connections mid-batch.
    (server as unknown as { queryQueue: BatchAwareQueue }).queryQueue = new BatchAwareQueue(db);
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

  return { url: `postgres://postgres:postgres@${host}:${port}/postgres`, port, stop };
}

/** Refuses to open a data directory that a live process already owns; takes over a stale lock. */
function acquireLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
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
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
