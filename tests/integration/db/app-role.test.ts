import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { DELETE as deleteFact } from '@/app/api/facts/[id]/route';
import { GET as listFacts } from '@/app/api/facts/route';
import { closeDb, getSql } from '@/db/client';
import { recoverInterruptedReplies } from '@/db/history';
import { releaseOrphanedJobs } from '@/db/jobs';
import { runMigrations } from '@/db/migrate';
import { getModels } from '@/lib/llm';
import { checkStoredEmbeddings } from '@/lib/memory/embedder-sync';
import { newClient, params, readChunks, setEnv, textOf } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { newDatabaseOn } from '@/tests/support/global-db';
import { postTurnSettled } from '@/tests/support/memory';

const run = promisify(execFile);

/**
 * The app run as docs/operations.md's "Two roles" says: the tables owned by a migration role,
 * the app on a login role that owns nothing and holds only the privileges it needs. Such a role
 * cannot switch the audit trigger off, so the audit log stays append-only for the app itself.
 * Only on a real Postgres: PGlite has one user, a superuser, so there is no second role to test.
 */
describe.runIf(inject('databaseKind') === 'postgres')('the app on a role that owns no tables', () => {
  const shared = inject('databaseUrl');
  const suffix = `${process.pid}_${Date.now().toString(36)}`;
  const ownerRole = `memlens_owner_${suffix}`;
  const appRole = `memlens_app_${suffix}`;
  const server = postgres(shared, { max: 1, onnotice: () => {} });
  let database: Awaited<ReturnType<typeof newDatabaseOn>>;
  const urlAs = (role: string) => {
    const url = new URL(database.url);
    url.username = role;
    url.password = 'pw';
    return url.toString();
  };

  beforeAll(async () => {
    // docs/operations.md's block, run by a superuser once: two login roles, the database owned by the first,
    // and pgvector (not a trusted extension: the owner may create pg_trgm and btree_gin itself).
    await server.unsafe(`create role ${ownerRole} login password 'pw'; create role ${appRole} login password 'pw'`);
    database = await newDatabaseOn(shared, 'memlens_roles');
    await server.unsafe(`alter database "${new URL(database.url).pathname.slice(1)}" owner to ${ownerRole}`);
    const asSuperuser = postgres(database.url, { max: 1, onnotice: () => {} });
    await asSuperuser.unsafe('create extension if not exists vector');
    await asSuperuser.end();

    await runMigrations(urlAs(ownerRole), urlAs(appRole));
    await closeDb();
    setEnv({ DATABASE_URL: urlAs(appRole) });
  });

  afterAll(async () => {
    await closeDb();
    setEnv({ DATABASE_URL: shared });
    await database?.stop();
    await server.unsafe(`drop role if exists ${appRole}; drop role if exists ${ownerRole}`);
    await server.end();
  });

  it('serves a chat turn, a sign-up and a fact deletion through the real route handlers', async () => {
    const [who] = await getSql()`select current_user as name, (select rolsuper from pg_roles where rolname = current_user) as superuser`;
    expect(who).toEqual({ name: appRole, superuser: false });

    const client = await newClient();
    const created = await createConversation(client.request('/api/conversations', { method: 'POST' }));
    const conversationId = (await created.json()).conversation.id;
    const reply = await chat(client.request('/api/chat', { body: { conversationId, message: { text: 'I live in Trondheim.' } } }));
    expect(reply.status).toBe(200);
    expect(textOf(await readChunks(reply))).not.toBe('');
    await postTurnSettled(client.user.id);

    const facts = (await (await listFacts(client.request('/api/facts?status=active'))).json()).facts as Array<{
      id: string;
      content: string;
    }>;
    const fact = facts.find((f) => f.content.includes('Trondheim'));
    expect(fact).toBeDefined();
    const deleted = await deleteFact(client.request(`/api/facts/${fact!.id}`, { method: 'DELETE' }), params({ id: fact!.id }));
    expect(deleted.status).toBe(200);
    const [entry] = await getSql()`select action from audit_log where object_type = 'fact' and object_id = ${fact!.id}`;
    expect(entry).toEqual({ action: 'delete' });

    await member(); // better-auth's tables, written by the same role
  });

  it("runs the start-up work (recovery, the jobs' release, the embedder check) and migrates again as the owner", async () => {
    await expect(recoverInterruptedReplies(0)).resolves.toBeTypeOf('number');
    await expect(releaseOrphanedJobs()).resolves.toBeTypeOf('number');
    const checks = await checkStoredEmbeddings(getModels());
    expect(checks.map((c) => c.table)).toEqual(['episodes', 'facts']);
    // A table a later migration adds (made here by the owner), then a second start by the scripts'
    // own path: nothing to migrate, the grants renewed, the new table covered.
    const owner = postgres(urlAs(ownerRole), { max: 1, onnotice: () => {} });
    await owner`create table later_table (id serial primary key, note text)`;
    await owner.end();
    const migrated = await run(
      process.execPath,
      [path.resolve('node_modules/.bin/tsx'), '--conditions=react-server', 'scripts/migrate.ts'],
      {
        env: { ...process.env, MIGRATION_DATABASE_URL: urlAs(ownerRole), DATABASE_URL: urlAs(appRole) },
        timeout: 60_000,
      },
    );
    expect(migrated.stdout).toContain('migrations applied');
    await expect(getSql()`insert into later_table (note) values ('x') returning id`).resolves.toHaveLength(1);
    // The app's role may not migrate: the error says what to set.
    await expect(runMigrations(urlAs(appRole))).rejects.toThrow(/MIGRATION_DATABASE_URL/u);
  });

  it('cannot alter, empty, drop or bypass the audit log', async () => {
    const app = postgres(urlAs(appRole), { max: 1, onnotice: () => {} });
    try {
      const count = async () => (await app`select count(*)::int as n from audit_log`)[0].n as number;
      await app`insert into audit_log (actor, actor_role, object_type, action) values ('test', 'system', 'probe', 'insert')`;
      const before = await count();
      expect(before).toBeGreaterThan(0);
      await expect(app.unsafe('set session_replication_role = replica')).rejects.toThrow(/permission denied/u);
      await expect(app.unsafe('delete from audit_log')).rejects.toThrow(/permission denied/u);
      await expect(app.unsafe(`update audit_log set action = 'tampered'`)).rejects.toThrow(/permission denied/u);
      await expect(app.unsafe('truncate audit_log')).rejects.toThrow(/permission denied/u);
      await expect(app.unsafe('alter table audit_log disable trigger audit_log_no_update_delete')).rejects.toThrow(/must be owner/u);
      await expect(app.unsafe('alter table audit_log disable trigger all')).rejects.toThrow(/must be owner/u);
      await expect(app.unsafe('drop trigger audit_log_no_update_delete on audit_log')).rejects.toThrow(/must be owner/u);
      await expect(app.unsafe('drop table audit_log')).rejects.toThrow(/must be owner/u);
      await expect(
        app.unsafe('create or replace function audit_log_append_only() returns trigger language plpgsql as $$ begin return old; end $$'),
      ).rejects.toThrow(/must be owner|permission denied/u);
      expect(await count()).toBe(before);
    } finally {
      await app.end();
    }
  });
});
