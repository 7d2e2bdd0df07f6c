import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '@/db/embedded';
import { openPostgres } from '@/db/postgres-url';
import { AUTH_TIMEOUT_MS, MAX_AUTHENTICATING, MAX_PREAUTH_MESSAGE_BYTES } from '@/db/wire-tcp';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-auth-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const tcpOf = (db: EmbeddedDatabase) => db.tcp!;
const urlWith = (db: EmbeddedDatabase, credentials: string) => `postgres://${credentials}@${tcpOf(db).host}:${tcpOf(db).port}/postgres`;

/** Runs one query on its own connection; the error's code when refused. */
async function tryQuery(url: string): Promise<unknown> {
  const sql = openPostgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const [row] = await sql`select 42 as answer`;
    return row.answer;
  } catch (error) {
    return (error as { code?: string }).code;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** A raw wire client: sends the bytes, collects what the server answers until it closes the connection. */
function rawExchange(port: number, messages: Buffer[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      for (const m of messages) socket.write(m);
    });
    let received = '';
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`the server kept the connection open; got ${JSON.stringify(received)}`)));
  });
}

/**
 * Sends `head`, then keeps sending junk as an attacker would; resolves with what the server
 * answered and how long it took to close the connection, or 'still open' after `withinMs`.
 */
function floodAfter(port: number, head: Buffer, withinMs: number): Promise<{ answer: string; closedAfterMs: number } | 'still open'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const junk = Buffer.alloc(64 * 1024, 1);
    let answer = '';
    let sentAt = 0;
    socket.on('connect', () => {
      sentAt = Date.now();
      socket.write(head);
    });
    const feeder = setInterval(() => socket.writable && socket.write(junk), 5);
    const give = setTimeout(() => finish('still open'), withinMs);
    const finish = (result: { answer: string; closedAfterMs: number } | 'still open') => {
      clearInterval(feeder);
      clearTimeout(give);
      socket.destroy();
      resolve(result);
    };
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('error', () => {}); // the server may reset it while junk is in flight
    socket.on('close', () => finish({ answer, closedAfterMs: Date.now() - sentAt }));
  });
}

/** A connection that sends nothing; `closed` resolves when the server closes it (it is dropped after `giveUpMs` regardless). */
function silentConnection(port: number, giveUpMs: number): Promise<{ socket: net.Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      let answer = '';
      socket.on('data', (data) => (answer += data.toString('latin1')));
      const closed = new Promise<string>((done) => socket.on('close', () => done(answer)));
      resolve({ socket, closed });
    });
    socket.once('error', reject);
    socket.on('error', () => {});
    setTimeout(() => socket.destroy(), giveUpMs).unref();
  });
}

function startupMessage(user: string): Buffer {
  const body = Buffer.from(`user\0${user}\0database\0postgres\0\0`);
  const message = Buffer.alloc(8 + body.length);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(196608, 4);
  body.copy(message, 8);
  return message;
}

function queryMessage(text: string): Buffer {
  const body = Buffer.from(`${text}\0`);
  const message = Buffer.alloc(5 + body.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}

const TCP = { host: '127.0.0.1', port: 0 };

describe('embedded database over TCP (opt-in)', () => {
  let db: EmbeddedDatabase;
  beforeAll(async () => {
    // Fewer slots than the silent connections below: those must not take any.
    db = await startEmbeddedDatabase({ dataDir: 'memory://', maxConnections: 8, tcp: TCP });
  });
  afterAll(() => db.stop());

  it('refuses a client with no password, a wrong one or another user, and admits the right password', async () => {
    const password = decodeURIComponent(new URL(tcpOf(db).url).password);
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(await tryQuery(urlWith(db, 'postgres'))).toBe('28P01');
    expect(await tryQuery(urlWith(db, 'postgres:postgres'))).toBe('28P01');
    expect(await tryQuery(urlWith(db, `someone:${password}`))).toBe('28P01');
    expect(await tryQuery(urlWith(db, `postgres:${password}`))).toBe(42);
  });

  it('lets nothing reach the database before the password is proved', async () => {
    const queryFirst = await rawExchange(tcpOf(db).port, [queryMessage('create table before_startup (x int)')]);
    const queryInstead = await rawExchange(tcpOf(db).port, [
      startupMessage('postgres'),
      queryMessage('create table instead_of_password (x int)'),
    ]);
    expect(queryFirst).toMatch(/^E.*FATAL.*08P01/s);
    expect(queryInstead).toMatch(/^R.*SCRAM-SHA-256[^E]*E.*FATAL.*08P01/s);
    // PGlite was never handed the startup or the queries: no session began, no table was made.
    expect(queryInstead).not.toContain('server_version');
    const sql = openPostgres(db.url, { max: 1, onnotice: () => {} });
    const tables = await sql`select tablename from pg_tables where tablename in ('before_startup', 'instead_of_password')`;
    await sql.end();
    expect(tables).toEqual([]);
  });

  it('closes 40 connections that never send a byte after the authentication timeout, and admits the right client and the app meanwhile', async () => {
    const silent = await Promise.all(Array.from({ length: 40 }, () => silentConnection(tcpOf(db).port, AUTH_TIMEOUT_MS + 5_000)));
    const openedAt = Date.now();
    // More silent connections than the database has slots, yet a client with the password gets in,
    // and so does a pool of the app's over the socket.
    expect(await tryQuery(tcpOf(db).url)).toBe(42);
    const pool = openPostgres(db.url, { max: 4, onnotice: () => {} });
    const answers = await Promise.all([1, 2, 3, 4].map((i) => pool`select ${i}::int as i`.then(([row]) => row.i)));
    await pool.end();
    expect(answers).toEqual([1, 2, 3, 4]);
    expect(silent.filter(({ socket }) => socket.destroyed)).toHaveLength(0);

    const answers40 = await Promise.all(silent.map(({ closed }) => closed));
    const closedAfter = Date.now() - openedAt;
    expect(silent.every(({ socket }) => socket.destroyed)).toBe(true);
    // Closed by the server at its deadline (with a FATAL error), not by our own give-up timer.
    expect(closedAfter).toBeLessThan(AUTH_TIMEOUT_MS + 2_000);
    for (const answer of answers40) expect(answer).toMatch(/^E.*FATAL.*authentication timed out/s);
  }, 20_000);

  it('refuses a startup message announcing 2 GB within a second, without reading it', async () => {
    const header = Buffer.alloc(8);
    header.writeInt32BE(2_000_000_000, 0);
    header.writeInt32BE(196608, 4);
    const result = await floodAfter(tcpOf(db).port, header, 1_000);
    expect(result).not.toBe('still open');
    expect(result).toMatchObject({ answer: expect.stringMatching(/^E.*FATAL.*08P01.*2000000000 bytes before authentication/s) });
    expect(await tryQuery(tcpOf(db).url)).toBe(42);
  });

  it('refuses a password message announcing 2 GB within a second, without reading it', async () => {
    const header = Buffer.alloc(5);
    header.write('p', 0);
    header.writeInt32BE(2_000_000_000, 1);
    const result = await floodAfter(tcpOf(db).port, Buffer.concat([startupMessage('postgres'), header]), 1_000);
    expect(result).not.toBe('still open');
    expect(result).toMatchObject({ answer: expect.stringMatching(/^R.*SCRAM-SHA-256[^E]*E.*FATAL.*08P01/s) });
    expect(MAX_PREAUTH_MESSAGE_BYTES).toBeLessThanOrEqual(16 * 1024);
  });

  it('bounds the connections still authenticating: past the cap the oldest is dropped at once', async () => {
    const silent = await Promise.all(
      Array.from({ length: MAX_AUTHENTICATING }, () => silentConnection(tcpOf(db).port, AUTH_TIMEOUT_MS + 5_000)),
    );
    const oneMore = await silentConnection(tcpOf(db).port, AUTH_TIMEOUT_MS + 5_000);
    const startedAt = Date.now();
    expect(await silent[0].closed).toMatch(/^E.*FATAL.*53300/s);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(silent.slice(1).some(({ socket }) => socket.destroyed)).toBe(false);
    for (const { socket } of [...silent, oneMore]) socket.destroy();
  });

  it('closes an authenticated connection idle for longer than the idle timeout', async () => {
    const idleDb = await startEmbeddedDatabase({ dataDir: 'memory://', tcp: { ...TCP, idleTimeoutMs: 300 } });
    let closedAt = 0;
    const sql = openPostgres(idleDb.tcp!.url, { max: 1, onnotice: () => {}, onclose: () => (closedAt = Date.now()) });
    try {
      await sql`select 1`;
      const queriedAt = Date.now();
      const closed = await new Promise<boolean>((resolve) => {
        const poll = setInterval(() => {
          if (!closedAt) return;
          clearInterval(poll);
          resolve(true);
        }, 20);
        setTimeout(() => {
          clearInterval(poll);
          resolve(false);
        }, 3_000);
      });
      expect(closed).toBe(true);
      expect(closedAt - queriedAt).toBeGreaterThanOrEqual(250);
    } finally {
      await sql.end({ timeout: 1 });
      await idleDb.stop();
    }
  });

  it('keeps the password in the data directory readable by the owner only, and reuses it after a restart', async () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o755);
    const first = await startEmbeddedDatabase({ dataDir, tcp: TCP });
    const file = tcpOf(first).passwordFile!;
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(await tryQuery(urlWith(first, 'postgres:wrong-password'))).toBe('28P01');
    expect(await tryQuery(tcpOf(first).url)).toBe(42);
    await first.stop();
    expect(file).toBe(path.join(dataDir, 'db-password'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);

    const second = await startEmbeddedDatabase({ dataDir, tcp: TCP });
    try {
      expect(fs.readFileSync(file, 'utf8').trim()).toBe(password);
      expect(await tryQuery(urlWith(second, `postgres:${password}`))).toBe(42);
    } finally {
      await second.stop();
    }
  });

  it('gives an in-memory database a fresh password and no password file; the socket URL carries none', () => {
    expect(tcpOf(db).passwordFile).toBeUndefined();
    expect(new URL(tcpOf(db).url).password).not.toBe('postgres');
    expect(new URL(db.url).password).toBe('');
  });
});
