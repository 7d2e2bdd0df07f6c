import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as clearSummary, PUT as editSummary } from '@/app/api/conversations/[id]/summary/route';
import { DELETE as deleteFact, PATCH as editFact } from '@/app/api/facts/[id]/route';
import { GET as listFacts } from '@/app/api/facts/route';
import { DELETE as forgetAll } from '@/app/api/memory/route';
import { DELETE as removeMessage } from '@/app/api/messages/[id]/route';
import { eachAuditEntry } from '@/db/audit';
import { getSql } from '@/db/client';
import { newClient, params, readChunks, setEnv } from '../support/app';
import { fillerTurns, importTurns, postTurnSettled } from '../support/memory';

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
      await editSummary(
        client.request(summaryUrl, { method: 'PUT', body: { content: '- A note by hand.' } }),
        params({ id: conversationId }),
      );
      await clearSummary(client.request(summaryUrl, { method: 'DELETE' }), params({ id: conversationId }));
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
      expect(entries.find((e) => e.action === 'edit' && e.object_type === 'fact')).toMatchObject({
        before: { content: dog.content },
        after: { content: 'My dog is called Max' },
      });
      // The deleted text is nowhere in the log.
      expect(JSON.stringify(entries)).not.toContain('coffee over tea');
    } finally {
      setEnv({ SUMMARY_KEEP_RAW: undefined });
    }
  });
});
