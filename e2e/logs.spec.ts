import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import getPort from 'get-port';
import postgres from 'postgres';
import { runMigrations } from '../db/migrate';
import { OwnServer } from './setup/own-server';

// The production server (the build this run made, started as `npm start` starts it) on a real
// Postgres set up as README's "Two roles" says: migrated by the tables' owner, run as a role that
// owns nothing. Its own log, read as an operator reads it: a query that fails inside a route must
// be logged without its SQL or its parameters, here a fact's text and the user's id. Bundling can
// defeat an `instanceof` check on the database library's error class, so only the built server
// shows whether the log holds. The query is made to fail by a trigger the test adds, on a database
// of its own on the Postgres of TEST_DATABASE_URL (CI sets it; without it the spec is skipped).

const serverUrl = process.env.TEST_DATABASE_URL?.trim();
// A server of its own, on a free port.
const PORT = await getPort({ host: '127.0.0.1' });
const base = `http://127.0.0.1:${PORT}`;
const MARKER = 'diary-entry-9c41-never-logged';

test.skip(!serverUrl, 'needs TEST_DATABASE_URL (a real Postgres whose role may create databases)');

const suffix = `${process.pid}_${Date.now().toString(36)}`;
const databaseName = `memlens_logs_${suffix}`;
const ownerRole = `memlens_logs_owner_${suffix}`;
const appRole = `memlens_logs_app_${suffix}`;
let admin: postgres.Sql;
let server: OwnServer | undefined;

/** The test database's address, as `role` (the superuser of TEST_DATABASE_URL when none is given). */
function urlOf(role?: string): string {
  const url = new URL(serverUrl!);
  url.pathname = `/${databaseName}`;
  if (role) Object.assign(url, { username: role, password: 'pw' });
  return url.toString();
}

test.beforeAll(async () => {
  admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create role ${ownerRole} login password 'pw'; create role ${appRole} login password 'pw'`);
  await admin.unsafe(`create database "${databaseName}" owner ${ownerRole}`);
  const superuser = postgres(urlOf(), { max: 1, onnotice: () => {} });
  await superuser.unsafe('create extension if not exists vector');
  await superuser.end();
  await runMigrations(urlOf(ownerRole), urlOf(appRole));
  const database = postgres(urlOf(ownerRole), { max: 1, onnotice: () => {} });
  await database.unsafe(`
    create function refuse_marked_facts() returns trigger language plpgsql as $$
    begin
      if new.content like '%${MARKER}%' then raise exception 'refused by the test'; end if;
      return new;
    end $$;
    create trigger refuse_marked_facts before insert on facts for each row execute function refuse_marked_facts();`);
  await database.end();

  server = new OwnServer({
    PORT: String(PORT),
    MIGRATION_DATABASE_URL: urlOf(ownerRole),
    DATABASE_URL: urlOf(appRole),
    MEMLENS_DEBUG: '',
  });
  await within(90_000, async () => ((await fetch(`${base}/login`).catch(() => undefined))?.status === 200 ? true : undefined));
});

test.afterAll(async () => {
  await server?.stop();
  await admin?.unsafe(`drop database if exists "${databaseName}" with (force)`);
  await admin?.unsafe(`drop role if exists ${appRole}; drop role if exists ${ownerRole}`);
  await admin?.end();
});

/**
 * The environments of the app's server processes (scripts/server.ts, Next inside), as /proc shows them (Linux): what a compromised
 * app process could read. The launcher itself, which migrates, is not among them.
 */
function nextEnvironments(processGroup: number): string[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/u.test(name))
    .flatMap((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
        const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return group === processGroup && /scripts\/server\.ts/u.test(command) ? [fs.readFileSync(`/proc/${pid}/environ`, 'utf8')] : [];
      } catch {
        return []; // a process that ended meanwhile
      }
    });
}

/** Polls until `probe` gives a value, for at most `ms`. */
async function within<T>(ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    expect(Date.now() - started, `not within ${ms} ms; the server printed:\n${server?.output}`).toBeLessThan(ms);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('the built server, run as a role that owns nothing, logs a failing query by its kind: no SQL, no fact, no user id', async () => {
  test.setTimeout(120_000);
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: base };
  // A first write makes the visitor a guest; its cookies go with the failing one.
  const created = await fetch(`${base}/api/conversations`, { method: 'POST', headers });
  expect(created.status).toBe(201);
  headers.cookie = created.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const added = await fetch(`${base}/api/facts`, { method: 'POST', headers, body: JSON.stringify({ content: `My diary says ${MARKER}` }) });
  expect(added.status).toBe(500);
  const userId = (await (await fetch(`${base}/api/me`, { headers })).json()).user?.id as string | undefined;

  const logged = await within(10_000, async () => server!.output.split('\n').find((line) => line.includes('unhandled error in route')));
  expect(logged).toContain('"path":"/api/facts"');
  expect(logged).toContain('DrizzleQueryError');
  expect(logged).toContain('refused by the test');
  expect(server!.output).not.toContain(MARKER);
  expect(server!.output).not.toContain('params:');
  expect(server!.output).not.toMatch(/insert into "facts"/iu);
  if (userId) expect(server!.output).not.toContain(userId);
  // Everything else the server does went through as the app's role: migrating (as the owner), a
  // chat turn and its post-turn work in the server's worker, the embedder check.
  const conversationId = (await created.json()).conversation.id as string;
  const reply = await fetch(`${base}/api/chat`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ conversationId, message: { text: 'I live in Tromsø.' } }),
  });
  expect(reply.status).toBe(200);
  expect(await reply.text()).toContain('text-delta');
  const superuser = postgres(urlOf(), { max: 1, onnotice: () => {} });
  try {
    await within(30_000, async () => {
      const [{ unfinished, done }] = await superuser`
        select count(*) filter (where status <> 'done')::int as unfinished, count(*) filter (where status = 'done')::int as done
        from jobs where conversation_id = ${conversationId}`;
      return done > 0 && unfinished === 0 ? true : undefined;
    });
    const facts = await superuser`select content from facts where conversation_id = ${conversationId}`;
    expect(facts.map((fact) => fact.content).join('\n')).toContain('Tromsø');
  } finally {
    await superuser.end();
  }
  expect(server!.output).toContain('migrations applied');
  expect(server!.output).not.toContain('permission denied');
  // The owner's credentials stay with the launcher: Next runs with the app's role alone.
  const environments = nextEnvironments(server!.pid);
  expect(environments.length).toBeGreaterThan(0);
  for (const environment of environments) {
    expect(environment).toContain(`DATABASE_URL=${urlOf(appRole)}`);
    expect(environment).not.toContain('MIGRATION_DATABASE_URL');
    expect(environment).not.toContain(ownerRole);
  }
});
