import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '@/db/embedded';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-auth-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

const urlWith = (db: EmbeddedDatabase, credentials: string) => `postgres://${credentials}@${db.host}:${db.port}/postgres`;

/** Runs one query on its own connection; the error's code when refused. */
async function tryQuery(url: string): Promise<unknown> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
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
    const socket = net.connect(port, '127.0.0.1', () => messages.forEach((m) => socket.write(m)));
    let received = '';
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`the server kept the connection open; got ${JSON.stringify(received)}`)));
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

describe('embedded database authentication', () => {
  let db: EmbeddedDatabase;
  beforeAll(async () => {
    db = await startEmbeddedDatabase({ dataDir: 'memory://', port: 0 });
  });
  afterAll(() => db.stop());

  it('refuses a client with no password, a wrong one or another user, and admits the right password', async () => {
    const password = decodeURIComponent(new URL(db.url).password);
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(await tryQuery(urlWith(db, 'postgres'))).toBe('28P01');
    expect(await tryQuery(urlWith(db, 'postgres:postgres'))).toBe('28P01');
    expect(await tryQuery(urlWith(db, `someone:${password}`))).toBe('28P01');
    expect(await tryQuery(urlWith(db, `postgres:${password}`))).toBe(42);
  });

  it('lets nothing reach the database before the password is proved', async () => {
    const queryFirst = await rawExchange(db.port, [queryMessage('create table before_startup (x int)')]);
    const queryInstead = await rawExchange(db.port, [startupMessage('postgres'), queryMessage('create table instead_of_password (x int)')]);
    expect(queryFirst).toMatch(/^E.*FATAL.*08P01/s);
    expect(queryInstead).toMatch(/^R.*SCRAM-SHA-256.*E.*FATAL.*08P01/s);
    // PGlite was never handed the startup or the queries: no session began, no table was made.
    expect(queryInstead).not.toContain('server_version');
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    const tables = await sql`select tablename from pg_tables where tablename in ('before_startup', 'instead_of_password')`;
    await sql.end();
    expect(tables).toEqual([]);
  });

  it('keeps the password in the data directory readable by the owner only, and reuses it after a restart', async () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o755);
    const first = await startEmbeddedDatabase({ dataDir, port: 0 });
    const file = first.passwordFile!;
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(await tryQuery(urlWith(first, 'postgres:wrong-password'))).toBe('28P01');
    expect(await tryQuery(first.url)).toBe(42);
    await first.stop();
    expect(file).toBe(path.join(dataDir, 'db-password'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);

    const second = await startEmbeddedDatabase({ dataDir, port: 0 });
    try {
      expect(fs.readFileSync(file, 'utf8').trim()).toBe(password);
      expect(await tryQuery(urlWith(second, `postgres:${password}`))).toBe(42);
    } finally {
      await second.stop();
    }
  });

  it('gives an in-memory database a fresh password and no password file', () => {
    expect(db.passwordFile).toBeUndefined();
    expect(new URL(db.url).password).not.toBe('postgres');
  });
});
