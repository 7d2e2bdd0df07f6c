import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { closeDb, getSql } from '@/db/client';
import { startEmbeddedDatabase } from '@/db/embedded';
import { runMigrations } from '@/db/migrate';
import { openPostgres, unixSocketDirectory } from '@/db/postgres-url';
import { setEnv } from '@/tests/support/app';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-pglite-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The TCP ports that process `pid` and its descendants listen on (Linux: /proc). */
function listeningTcpPorts(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    for (const task of fs.readdirSync(`/proc/${pids[i]}/task`)) {
      const children = fs.readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim();
      if (children) pids.push(...children.split(/\s+/u).map(Number));
    }
  }
  const ports: number[] = [];
  for (const owner of pids) {
    const inodes = new Set(
      fs.readdirSync(`/proc/${owner}/fd`).flatMap((fd) => {
        try {
          return [/^socket:\[(\d+)\]$/u.exec(fs.readlinkSync(`/proc/${owner}/fd/${fd}`))?.[1]].filter((inode) => inode !== undefined);
        } catch {
          return []; // closed meanwhile
        }
      }),
    );
    for (const table of ['tcp', 'tcp6']) {
      for (const line of fs.readFileSync(`/proc/${owner}/net/${table}`, 'utf8').trim().split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/u);
        // local_address is hex address:port, st 0A is LISTEN, the inode is the tenth field.
        if (fields[3] === '0A' && inodes.has(fields[9])) ports.push(parseInt(fields[1].split(':')[1], 16));
      }
    }
  }
  return ports;
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** A query over the URL's socket: the database answers there. */
async function answerOver(url: string): Promise<number> {
  const sql = openPostgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await sql`select 42 as answer`)[0].answer;
  } finally {
    await sql.end();
  }
}

describe('embedded database', () => {
  it('is served on a Unix socket only its owner can reach, in its 0700 data directory, with no TCP port open; the app pool works over it', async () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o755);
    const before = listeningTcpPorts(process.pid);
    const db = await startEmbeddedDatabase({ dataDir });
    try {
      expect(listeningTcpPorts(process.pid)).toEqual(before);
      expect(unixSocketDirectory(db.url)).toBe(dataDir);
      expect(db.socketDir).toBe(dataDir);
      const socket = path.join(dataDir, `.s.PGSQL.${db.socketPort}`);
      expect(fs.statSync(socket).isSocket()).toBe(true);
      expect(modeOf(socket) & 0o077).toBe(0);
      expect(modeOf(dataDir)).toBe(0o700);
      expect(db.tcp).toBeUndefined();
      await runMigrations(db.url);
      setEnv({ DATABASE_URL: db.url });
      await closeDb();
      const [row] = await getSql()`insert into users (display_name) values ('over the socket') returning display_name`;
      expect(row.display_name).toBe('over the socket');
    } finally {
      await closeDb();
      setEnv({ DATABASE_URL: inject('databaseUrl') });
      await db.stop();
    }
    expect(fs.existsSync(path.join(dataDir, `.s.PGSQL.${db.socketPort}`))).toBe(false);
  });

  it('gives an in-memory database a fresh 0700 directory for its socket, removed at stop', async () => {
    const db = await startEmbeddedDatabase({ dataDir: 'memory://' });
    const dir = db.socketDir;
    try {
      expect(unixSocketDirectory(db.url)).toBe(dir);
      expect(modeOf(dir)).toBe(0o700);
      expect(await answerOver(db.url)).toBe(42);
    } finally {
      await db.stop();
    }
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("deallocates a connection's prepared statements when it closes: its one backend holds every connection's", async () => {
    const db = await startEmbeddedDatabase({ dataDir: 'memory://' });
    const watcher = openPostgres(db.url, { max: 1, onnotice: () => {} });
    const prepared = async () =>
      (await watcher.unsafe("select count(*)::int as n from pg_prepared_statements where statement like '%memlens-prepared-probe%'"))[0]
        .n as number;
    try {
      const client = openPostgres(db.url, { max: 1, onnotice: () => {} });
      for (const value of [1, 2, 3]) {
        const [row] = await client.unsafe("select $1::int + 1 as next, 'memlens-prepared-probe' as probe", [value], { prepare: true });
        expect(row.next).toBe(value + 1);
      }
      // Prepared once, run three times.
      expect(await prepared()).toBe(1);
      await client.end({ timeout: 5 });
      // The bridge deallocates on the close it is told of; wait on that state, a bounded number of times.
      let left = await prepared();
      for (let attempt = 0; left > 0 && attempt < 100; attempt++) {
        await new Promise((resolve) => setImmediate(resolve));
        left = await prepared();
      }
      expect(left).toBe(0);
    } finally {
      await watcher.end({ timeout: 5 });
      await db.stop();
    }
  });

  it('puts the socket of a data directory too deep for a socket path in a short 0700 directory, removed at stop', async () => {
    const dataDir = path.join(tempDir(), 'a-data-directory-whose-path-is-too-long-for-a-unix-socket'.repeat(2));
    const db = await startEmbeddedDatabase({ dataDir });
    const dir = db.socketDir;
    try {
      expect(dir).not.toBe(dataDir);
      expect(Buffer.byteLength(path.join(dir, `.s.PGSQL.${db.socketPort}`))).toBeLessThanOrEqual(107);
      expect(modeOf(dir)).toBe(0o700);
      expect(await answerOver(db.url)).toBe(42);
    } finally {
      await db.stop();
    }
    expect(fs.existsSync(dir)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  });

  it('starts, migrates, serves a pool of 10 under concurrent load, stops, and starts again with the data intact', async () => {
    const dataDir = tempDir();
    const first = await startEmbeddedDatabase({ dataDir });
    await runMigrations(first.url);
    const pool = openPostgres(first.url, { max: 10, onnotice: () => {} });
    const [user] = await pool`insert into users default values returning id`;
    // Interleaved parameterised queries and transactions from ten connections at once.
    const work = Array.from({ length: 100 }, (_, i) =>
      i % 5 === 0
        ? pool.begin(async (tx) => {
            await tx`insert into conversations (user_id, title) values (${user.id}, ${`c${i}`})`;
            const [{ n }] = await tx`select count(*)::int as n from conversations where title = ${`c${i}`}`;
            expect(n).toBe(1);
          })
        : pool`select ${i}::int as i, ${`text ${i}`}::text as t`.then(([row]) => expect(row).toEqual({ i, t: `text ${i}` })),
    );
    await Promise.all(work);
    const extensions = (await pool`select extname from pg_extension order by extname`).map((r) => r.extname);
    expect(extensions).toEqual(expect.arrayContaining(['pg_trgm', 'vector']));
    await pool.end();
    await first.stop();
    expect(fs.existsSync(path.join(dataDir, 'memlens.lock'))).toBe(false);

    const second = await startEmbeddedDatabase({ dataDir });
    await runMigrations(second.url); // idempotent
    const sql = openPostgres(second.url, { max: 1, onnotice: () => {} });
    const [{ n }] = await sql`select count(*)::int as n from conversations where user_id = ${user.id}`;
    expect(n).toBe(20);
    await sql.end();
    await second.stop();
  });

  it('refuses a second owner of the same data directory while the first is alive', async () => {
    const dataDir = tempDir();
    const owner = await startEmbeddedDatabase({ dataDir });
    try {
      fs.writeFileSync(path.join(dataDir, 'memlens.lock'), String(process.ppid)); // another live process
      await expect(startEmbeddedDatabase({ dataDir })).rejects.toThrow(/already open in process/);
    } finally {
      fs.writeFileSync(path.join(dataDir, 'memlens.lock'), String(process.pid));
      await owner.stop();
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'memlens.lock'), '999999');
    const db = await startEmbeddedDatabase({ dataDir });
    expect(fs.readFileSync(path.join(dataDir, 'memlens.lock'), 'utf8')).toBe(String(process.pid));
    await db.stop();
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'the launcher serves it on the socket only, prints how to connect, and on %s shuts down cleanly with the data kept',
    async (signal) => {
      const dataDir = tempDir();
      const launch = async () => {
        const child = spawn(path.resolve('node_modules/.bin/tsx'), ['--conditions=react-server', 'scripts/start.ts', 'db'], {
          env: { ...process.env, DATABASE_URL: '', PGLITE_DIR: dataDir, PGLITE_PORT: '', PGLITE_HOST: '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        const url = await new Promise<string>((resolve, reject) => {
          const timer = setInterval(() => {
            const match = /^ {2}DATABASE_URL=(\S+)$/mu.exec(output);
            if (match && output.includes('migrations applied')) {
              clearInterval(timer);
              resolve(match[1]);
            }
            if (child.exitCode !== null) reject(new Error(output));
          }, 50);
        });
        expect(unixSocketDirectory(url)).toBe(dataDir);
        expect(output).toContain(`psql -h ${dataDir} -p ${new URL(url).port} -U postgres postgres`);
        expect(listeningTcpPorts(child.pid!)).toEqual([]);
        expect(fs.existsSync(path.join(dataDir, 'db-password'))).toBe(false);
        const stop = async () => {
          const code = await new Promise<number | null>((resolve) => {
            child.once('exit', resolve);
            child.kill(signal);
          });
          return { code, output };
        };
        return { url, stop };
      };

      const first = await launch();
      const sql = openPostgres(first.url, { max: 2, onnotice: () => {} });
      await sql`insert into users (display_name) values ('kept')`;
      await sql.end();
      const stopped = await first.stop();
      expect(stopped.code).toBe(0);
      expect(stopped.output).toContain('embedded database stopped cleanly');
      expect(fs.existsSync(path.join(dataDir, 'memlens.lock'))).toBe(false);

      const again = await launch();
      const check = openPostgres(again.url, { max: 1, onnotice: () => {} });
      expect((await check`select display_name from users`).map((r) => r.display_name)).toEqual(['kept']);
      await check.end();
      expect((await again.stop()).code).toBe(0);
    },
    120_000,
  );
});
