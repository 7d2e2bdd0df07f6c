import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase } from '@/db/embedded';
import { runMigrations } from '@/db/migrate';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-pglite-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('embedded database', () => {
  it('starts, migrates, serves a pool of 10 under concurrent load, stops, and starts again with the data intact', async () => {
    const dataDir = tempDir();
    const first = await startEmbeddedDatabase({ dataDir, port: 0 });
    await runMigrations(first.url);
    const pool = postgres(first.url, { max: 10, onnotice: () => {} });
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

    const second = await startEmbeddedDatabase({ dataDir, port: 0 });
    await runMigrations(second.url); // idempotent
    const sql = postgres(second.url, { max: 1, onnotice: () => {} });
    const [{ n }] = await sql`select count(*)::int as n from conversations where user_id = ${user.id}`;
    expect(n).toBe(20);
    await sql.end();
    await second.stop();
  });

  it('refuses a second owner of the same data directory while the first is alive', async () => {
    const dataDir = tempDir();
    const owner = await startEmbeddedDatabase({ dataDir, port: 0 });
    try {
      fs.writeFileSync(path.join(dataDir, 'memlens.lock'), String(process.ppid)); // another live process
      await expect(startEmbeddedDatabase({ dataDir, port: 0 })).rejects.toThrow(/already open in process/);
    } finally {
      fs.writeFileSync(path.join(dataDir, 'memlens.lock'), String(process.pid));
      await owner.stop();
    }
  });

  it('takes over a lock left by a process that died', async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'memlens.lock'), '999999');
    const db = await startEmbeddedDatabase({ dataDir, port: 0 });
    expect(fs.readFileSync(path.join(dataDir, 'memlens.lock'), 'utf8')).toBe(String(process.pid));
    await db.stop();
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('the launcher serves it, and on %s shuts down cleanly with the data kept', async (signal) => {
    const dataDir = tempDir();
    const launch = async () => {
      const child = spawn(path.resolve('node_modules/.bin/tsx'), ['scripts/start.ts', 'db'], {
        env: { ...process.env, DATABASE_URL: '', PGLITE_DIR: dataDir, PGLITE_PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const address = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const match = output.match(/ready on (\S+:\d+)/);
          if (match && output.includes('migrations applied')) {
            clearInterval(timer);
            resolve(match[1]);
          }
          if (child.exitCode !== null) reject(new Error(output));
        }, 50);
      });
      // It says where the password is kept, and never prints the password itself.
      const password = fs.readFileSync(path.join(dataDir, 'db-password'), 'utf8').trim();
      expect(output).toContain(`PGPASSWORD="$(cat ${path.join(dataDir, 'db-password')})" psql -h ${address.replace(':', ' -p ')} -U postgres`);
      expect(output).not.toContain(password);
      const url = `postgres://postgres:${password}@${address}/postgres`;
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
    const sql = postgres(first.url, { max: 2, onnotice: () => {} });
    await sql`insert into users (display_name) values ('kept')`;
    await sql.end();
    const stopped = await first.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.output).toContain('embedded database stopped cleanly');
    expect(fs.existsSync(path.join(dataDir, 'memlens.lock'))).toBe(false);

    const again = await launch();
    const check = postgres(again.url, { max: 1, onnotice: () => {} });
    expect((await check`select display_name from users`).map((r) => r.display_name)).toEqual(['kept']);
    await check.end();
    expect((await again.stop()).code).toBe(0);
  }, 120_000);
});
