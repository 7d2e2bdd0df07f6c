import { sql, TransactionRollbackError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as clearSummary, PUT as editSummary } from '@/app/api/conversations/[id]/summary/route';
import { DELETE as deleteFact, PATCH as editFact, PATCH as editFactRoute } from '@/app/api/facts/[id]/route';
import { POST as addFact, GET as listFacts } from '@/app/api/facts/route';
import { DELETE as forgetAll } from '@/app/api/memory/route';
import { DELETE as removeMessage } from '@/app/api/messages/[id]/route';
import { eachAuditEntry } from '@/db/audit';
import { type ChainCheck, checkAuditChain } from '@/db/audit-chain';
import { getDb, getSql } from '@/db/client';
import type { Executor } from '@/db/provenance';
import { auditEntry, TEXT_ERASED } from '@/lib/services/audit-log';
import { newClient, params, readChunks, setEnv } from '@/tests/support/app';
import { fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

const entriesFor = (userId: string) => getSql()`select * from audit_log where target_user_id = ${userId} order by id`;

describe('the audit log', () => {
  it('refuses UPDATE, DELETE and TRUNCATE: append-only, enforced by the database', async () => {
    await getSql()`insert into audit_log (actor, actor_role, object_type, action) values ('test', 'system', 'probe', 'insert')`;
    await expect(getSql()`update audit_log set action = 'tampered'`).rejects.toThrow(/append-only/u);
    await expect(getSql()`delete from audit_log`).rejects.toThrow(/append-only/u);
    await expect(getSql()`truncate audit_log`).rejects.toThrow(/append-only/u);
  });

  it('reads every matching entry for the export, a page at a time, newest first', async () => {
    const target = (await newClient()).user.id;
    for (let i = 0; i < 7; i++) {
      await getSql()`insert into audit_log (actor, actor_role, target_user_id, object_type, action) values ('test', 'system', ${target}, 'probe', ${i % 2 ? 'read' : 'edit'})`;
    }
    const all = (await entriesFor(target)).map((e) => Number(e.id)).reverse();
    const read = async (filter: Parameters<typeof eachAuditEntry>[0]) => {
      const ids: number[] = [];
      for await (const entry of eachAuditEntry(filter, 3)) ids.push(entry.id);
      return ids;
    };
    expect(await read({ targetUserId: target })).toEqual(all);
    expect(await read({ targetUserId: target, action: 'changes' })).toHaveLength(4);
  });

  it('records every correction with actor, role, target, object, action, before/after and request id; deleted text stays redacted', async () => {
    const client = await newClient();
    setEnv({ SUMMARY_KEEP_RAW: '4' });
    try {
      const conversationId = await importTurns(client.user.id, [
        ['I prefer coffee over tea, always black. My dog is called Rex.', 'Noted.'],
        ...fillerTurns(5),
      ]);
      const facts = (await (await listFacts(client.request('/api/facts?status=active'))).json()).facts as Array<{
        id: string;
        content: string;
      }>;
      const coffee = facts.find((f) => f.content.includes('coffee'))!;
      const dog = facts.find((f) => f.content.includes('Rex'))!;
      const withId = (init: Parameters<typeof client.request>[1]) => {
        const request = client.request('/x', init);
        request.headers.set('x-request-id', 'req-123');
        return request;
      };
      await deleteFact(new Request(`http://localhost/api/facts/${coffee.id}`, withId({ method: 'DELETE' })), params({ id: coffee.id }));
      await editFact(
        client.request(`/api/facts/${dog.id}`, { method: 'PATCH', body: { content: 'My dog is called Max' } }),
        params({ id: dog.id }),
      );
      const summaryUrl = `/api/conversations/${conversationId}/summary`;
      // No version given: the edit applies even if a rebuild queued by the fact changes wrote one meanwhile.
      const edited = await editSummary(
        client.request(summaryUrl, { method: 'PUT', body: { content: '- A note by hand.' } }),
        params({ id: conversationId }),
      );
      expect(edited.status).toBe(200);
      const cleared = await clearSummary(client.request(summaryUrl, { method: 'DELETE' }), params({ id: conversationId }));
      expect(cleared.status).toBe(200);
      const [message] =
        await getSql()`select id from messages where conversation_id = ${conversationId} and role = 'assistant' order by created_at desc limit 1`;
      await removeMessage(client.request(`/api/messages/${message.id}`, { method: 'DELETE' }), params({ id: message.id }));
      const [first] =
        await getSql()`select id from messages where conversation_id = ${conversationId} and role = 'user' order by created_at desc limit 1`;
      await readChunks(
        await chat(client.request('/api/chat', { body: { conversationId, message: { id: first.id, text: 'A different question now?' } } })),
      );
      await postTurnSettled(client.user.id);
      await forgetAll(client.request('/api/memory', { method: 'DELETE' }));

      const entries = await entriesFor(client.user.id);
      const actions = entries.map((e) => `${e.object_type}:${e.action}`);
      for (const expected of [
        'fact:delete',
        'fact:edit',
        'summary:edit',
        'summary:clear',
        'message:delete',
        'message:edit',
        'memory:forget',
      ]) {
        expect(actions).toContain(expected);
      }
      for (const e of entries) {
        expect(e.actor).toBe(`user:${client.user.id}`);
        expect(e.actor_role).toBe('user');
        expect(e.actor_user_id).toBe(client.user.id);
        expect(e.request_id).toBeTruthy();
      }
      const deleted = entries.find((e) => e.action === 'delete' && e.object_type === 'fact')!;
      expect(deleted.object_id).toBe(coffee.id);
      expect(deleted.request_id).toBe('req-123');
      expect(deleted.before).toMatchObject({ content: '[redacted]' });
      // The edit's old and new text were kept apart from the entry, and forget everything erased them.
      const edit = entries.find((e) => e.action === 'edit' && e.object_type === 'fact')!;
      expect(edit).toMatchObject({ before: {}, after: {}, payload_hash: expect.stringMatching(/^[0-9a-f]{64}$/u) });
      expect(await auditEntry(String(edit.id))).toMatchObject({ erased: TEXT_ERASED, before: {}, after: {} });
      expect(JSON.stringify(entries)).not.toContain('Max');
      // The deleted text is nowhere in the log.
      expect(JSON.stringify(entries)).not.toContain('coffee over tea');
    } finally {
      setEnv({ SUMMARY_KEEP_RAW: undefined });
    }
  });
});

describe('the audit log’s hash chain', () => {
  /** Runs `tamper` as the tables' owner would, trigger off, checks the chain as it then stands, and rolls everything back. */
  async function checkAfter(tamper: (tx: Executor) => Promise<unknown>) {
    let check: ChainCheck | undefined;
    await getDb()
      .transaction(async (tx) => {
        await tx.execute(sql`alter table audit_log disable trigger audit_log_no_update_delete`);
        await tamper(tx);
        check = await checkAuditChain(tx);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    return check!;
  }

  it('chains every entry to the one before; altering, removing or re-hashing one, or changing kept text, is detected', async () => {
    const client = await newClient();
    const facts = await (await addFact(client.request('/api/facts', { body: { content: 'I grow chillies on the balcony' } }))).json();
    await editFactRoute(
      client.request(`/api/facts/${facts.fact.id}`, { method: 'PATCH', body: { content: 'I grow peppers on the balcony' } }),
      params({ id: facts.fact.id }),
    );
    const [edit] = await getSql()`select id, hash from audit_log where target_user_id = ${client.user.id} and action = 'edit'`;
    await getSql()`insert into audit_log (actor, actor_role, target_user_id, object_type, action) values ('test', 'system', ${client.user.id}, 'probe', 'read')`;
    const [probe] = await getSql()`select id from audit_log where target_user_id = ${client.user.id} and object_type = 'probe'`;
    expect(edit.hash).toMatch(/^[0-9a-f]{64}$/u);

    const intact = await checkAuditChain();
    expect(intact.breaks).toEqual([]);
    expect(intact.entries).toBeGreaterThanOrEqual(3);

    const id = Number(edit.id);
    expect((await checkAfter((tx) => tx.execute(sql`update audit_log set reason = 'rewritten' where id = ${id}`))).breaks).toContainEqual({
      id,
      problem: 'entry',
    });
    // Re-hashing the altered entry moves the break to the next one.
    const rehashed = await checkAfter(async (tx) => {
      await tx.execute(sql`update audit_log set object_id = 'elsewhere' where id = ${id}`);
      await tx.execute(
        sql`update audit_log a set hash = audit_entry_hash((select hash from audit_log p where p.id < a.id order by p.id desc limit 1), a) where a.id = ${id}`,
      );
    });
    expect(rehashed.breaks.map((b) => b.id)).not.toContain(id);
    expect(rehashed.breaks.length).toBeGreaterThan(0);
    expect((await checkAfter((tx) => tx.execute(sql`delete from audit_log where id = ${id}`))).breaks.length).toBeGreaterThan(0);
    expect(
      (await checkAfter((tx) => tx.execute(sql`update audit_payloads set after = '{"content": "I grow tulips"}' where entry_id = ${id}`)))
        .breaks,
    ).toEqual([{ id, problem: 'text' }]);
    // Nothing of it was kept: the log verifies as before.
    expect((await checkAuditChain()).breaks).toEqual([]);
    expect(Number(probe.id)).toBeGreaterThan(id);
  });
});
