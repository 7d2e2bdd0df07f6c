import { describe, expect, it } from 'vitest';
import { openPostgres } from '@/db/postgres-url';
import { applyMigration, emptyDatabase, migrateUpTo } from '@/tests/support/own-database';

// Migration 0018 takes the members' words out of the audit log's existing entries into
// audit_payloads (a deleted member's are dropped), and chains every entry by hash: applied to a
// database holding entries as the earlier schema wrote them.

const MIGRATION = '0018_audit_payloads_dead_letters.sql';

describe('migration 0018', () => {
  it('moves the text of existing entries to payloads, drops a deleted member’s, keeps the rest, and chains every entry', {
    timeout: 120_000,
  }, async () => {
    const database = await emptyDatabase('memlens_audit_payloads');
    const sql = openPostgres(database.url, { max: 1, onnotice: () => {} });
    try {
      await migrateUpTo(sql, MIGRATION);
      const [member] = await sql`insert into users (kind) values ('guest') returning id`;
      const gone = crypto.randomUUID();
      const entry = (target: string, action: string, before: unknown, after: unknown) => sql`
        insert into audit_log (actor, actor_role, target_user_id, object_type, action, before, after)
        values ('user:x', 'user', ${target}, 'fact', ${action}, ${sql.json(before as never)}, ${sql.json(after as never)}) returning id`;
      const [[edit], [goneEdit], [deleted], [role]] = [
        await entry(member.id, 'edit', { content: 'My cat is Tom' }, { content: 'My cat is Tim' }),
        await entry(gone, 'edit', { content: 'I live in Lisbon', version: 3 }, { content: 'I live in Faro', version: 4 }),
        await entry(member.id, 'delete', { slot: 'home', content: '[redacted]' }, { reason: 'fact deleted' }),
        await entry(member.id, 'grant_staff', { role: 'user' }, { role: 'staff', via: 'grant' }),
      ];

      await applyMigration(sql, MIGRATION);

      const rows = await sql`select id, before, after, payload_hash, hash from audit_log order by id`;
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(edit.id)).toMatchObject({ before: {}, after: {}, payload_hash: expect.stringMatching(/^[0-9a-f]{64}$/u) });
      expect(byId.get(goneEdit.id)).toMatchObject({ before: { version: 3 }, after: { version: 4 }, payload_hash: expect.any(String) });
      expect(byId.get(deleted.id)).toMatchObject({ before: { slot: 'home', content: '[redacted]' }, payload_hash: null });
      expect(byId.get(role.id)).toMatchObject({ before: { role: 'user' }, after: { role: 'staff', via: 'grant' }, payload_hash: null });
      const payloads = await sql`select entry_id, user_id, before, after, audit_payload_hash(before, after) as hash from audit_payloads`;
      expect(payloads).toEqual([
        {
          entry_id: edit.id,
          user_id: member.id,
          before: { content: 'My cat is Tom' },
          after: { content: 'My cat is Tim' },
          hash: byId.get(edit.id)!.payload_hash,
        },
      ]);
      expect(JSON.stringify(await sql`select * from audit_log`)).not.toMatch(/Lisbon|Faro|Tom|Tim/u);

      // Every entry is chained, and the next one written joins the chain.
      await sql`insert into audit_log (actor, actor_role, object_type, action) values ('test', 'system', 'probe', 'read')`;
      const broken = await sql`
        select id from (select id, hash, audit_entry_hash(lag(hash) over (order by id), audit_log) as expected from audit_log) a
        where hash <> expected`;
      expect(broken).toEqual([]);
      expect(await sql`select count(*)::int as n from audit_log where hash ~ '^[0-9a-f]{64}$'`).toEqual([{ n: 5 }]);
      await expect(sql`update audit_log set reason = 'x'`).rejects.toThrow(/append-only/u);
    } finally {
      await sql.end();
      await database.stop();
    }
  });
});
