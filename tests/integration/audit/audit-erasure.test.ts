import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { PUT as editSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { PATCH as editFact } from '@/app/api/facts/[id]/route';
import { POST as addFact } from '@/app/api/facts/route';
import { DELETE as deleteMe } from '@/app/api/me/route';
import { DELETE as forgetAll } from '@/app/api/memory/route';
import { GET as auditLog } from '@/app/api/staff/audit/route';
import { checkAuditChain } from '@/db/audit-chain';
import { getSql } from '@/db/client';
import { TEXT_ERASED } from '@/lib/services/audit-log';
import { params, readChunks } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { postTurnSettled } from '@/tests/support/memory';

// What a member said is not kept by the audit log once they erase it: their words (a fact's or a
// summary's text before and after an edit) live in audit_payloads, which "forget everything" and
// account deletion empty, while the entries, append-only and hash-chained, stay. Proved through the
// database: every text and JSON column of every table is searched for the member's words.

type Member = Awaited<ReturnType<typeof member>>;

/** A word no one else writes, so that finding it anywhere means it came from this test. */
const word = (what: string) => `${what}${crypto.randomUUID().replaceAll('-', '').slice(0, 10)}`;

/** Where each word is found: every text, varchar, json, jsonb and array column of every table, searched whole. */
async function whereFound(words: string[]): Promise<Record<string, string[]>> {
  const sql = getSql();
  const columns = await sql`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = current_schema() and c.data_type in ('text', 'character varying', 'json', 'jsonb', 'ARRAY')`;
  expect(columns.length).toBeGreaterThan(30);
  const found: Record<string, string[]> = {};
  for (const { table_name: table, column_name: column } of columns) {
    const [row] = await sql`
      select coalesce(array_agg(w), '{}') as hits from unnest(${words}::text[]) w
      where exists (select 1 from ${sql(table)} where ${sql(column)}::text ilike '%' || w || '%')`;
    for (const hit of row.hits as string[]) found[hit] = [...(found[hit] ?? []), `${table}.${column}`];
  }
  return found;
}

/**
 * The member says things everywhere memory keeps them: a chat message, a fact added by hand, a fact
 * edited (old and new text), a summary written by hand. Returns the words of each.
 */
async function speak(client: Member) {
  const words = {
    chat: word('Clockwright'),
    fact: word('Kettlemoor'),
    old: word('Boatname'),
    new: word('Renamed'),
    summary: word('Summit'),
  };
  const created = await createConversation(client.request('/api/conversations', { method: 'POST' }));
  const conversationId = (await created.json()).conversation.id as string;
  await readChunks(
    await chat(
      client.request('/api/chat', { body: { conversationId, message: { text: `I restore ${words.chat} clocks in my workshop.` } } }),
    ),
  );
  const [{ id: userId }] = await getSql()`select id from users where email = ${client.email}`;
  await postTurnSettled(userId);
  expect((await addFact(client.request('/api/facts', { body: { content: `I keep a ${words.fact} kettle on the stove` } }))).status).toBe(
    201,
  );
  const boat = await addFact(client.request('/api/facts', { body: { content: `My boat is called ${words.old}` } }));
  const factId = (await boat.json()).fact.id as string;
  const edited = await editFact(
    client.request(`/api/facts/${factId}`, { method: 'PATCH', body: { content: `My boat is called ${words.new}` } }),
    params({ id: factId }),
  );
  expect(edited.status).toBe(200);
  const summary = await editSummary(
    client.request(`/api/conversations/${conversationId}/summary`, { method: 'PUT', body: { content: `- Talks about ${words.summary}.` } }),
    params({ id: conversationId }),
  );
  expect(summary.status).toBe(200);
  return { userId: userId as string, words };
}

type StaffEntry = { objectType: string; action: string; before: unknown; after: unknown; erased: string | null };

async function staffEntries(staff: Member, userId: string): Promise<StaffEntry[]> {
  return (await (await auditLog(staff.request(`/api/staff/audit?targetUserId=${userId}&action=changes`))).json()).entries;
}

/** The edits as staff read them: with the member's text while it is kept. */
async function expectTextShown(staff: Member, userId: string, words: Record<string, string>) {
  const entries = await staffEntries(staff, userId);
  expect(entries.find((e) => e.objectType === 'fact' && e.action === 'edit')).toMatchObject({
    before: { content: `My boat is called ${words.old}` },
    after: { content: `My boat is called ${words.new}` },
    erased: null,
  });
  expect(entries.find((e) => e.objectType === 'summary' && e.action === 'edit')).toMatchObject({
    after: { content: `- Talks about ${words.summary}.` },
  });
}

/** After erasure: the entries stay, each edit saying its text was erased, the chain holds and the log still refuses changes. */
async function expectErasedButLogged(staff: Member, userId: string) {
  const entries = await staffEntries(staff, userId);
  for (const objectType of ['fact', 'summary']) {
    expect(entries.find((e) => e.objectType === objectType && e.action === 'edit')).toMatchObject({ erased: TEXT_ERASED });
  }
  const jsonl = await (await auditLog(staff.request(`/api/staff/audit?targetUserId=${userId}&format=jsonl`))).text();
  expect(jsonl.match(new RegExp(TEXT_ERASED, 'gu'))?.length).toBeGreaterThanOrEqual(2);
  expect((await checkAuditChain()).breaks).toEqual([]);
  await expect(getSql()`update audit_log set reason = 'tampered' where target_user_id = ${userId}`).rejects.toThrow(/append-only/u);
  await expect(getSql()`delete from audit_log where target_user_id = ${userId}`).rejects.toThrow(/append-only/u);
}

describe('erasure reaches the audit log', () => {
  it('after account deletion no word the member wrote is left in any table; the log keeps its entries, chained', async () => {
    const staff = await member({ staff: true });
    const client = await member();
    const { userId, words } = await speak(client);
    const all = Object.values(words);
    // The search finds them while they are kept: in the audit log's payloads too.
    const before = await whereFound(all);
    expect(Object.keys(before).sort()).toEqual([...all].sort());
    expect(before[words.old]).toContain('audit_payloads.before');
    expect(before[words.summary]).toContain('audit_payloads.after');
    expect(JSON.stringify(before)).not.toContain('audit_log.');
    await expectTextShown(staff, userId, words);

    expect((await deleteMe(client.request('/api/me', { method: 'DELETE' }))).status).toBe(200);

    expect(await whereFound(all)).toEqual({});
    await expectErasedButLogged(staff, userId);
  });

  it('after forget everything no word of the memory is left but in the undo snapshot, and the chat only in the conversation', async () => {
    const staff = await member({ staff: true });
    const client = await member();
    const { userId, words } = await speak(client);
    await expectTextShown(staff, userId, words);

    expect((await forgetAll(client.request('/api/memory', { method: 'DELETE' }))).status).toBe(200);

    const found = await whereFound(Object.values(words));
    // The conversation stays (forget everything forgets memory, not the chat): its title, messages and
    // its replies' turn records and citations. What memory held is kept only for the undo, until its window closes.
    const conversation = /^(conversations|messages|turn_records|citations)\.|^undoable_changes\.snapshot$/u;
    expect(found[words.chat].filter((at) => !conversation.test(at))).toEqual([]);
    expect(found[words.chat]).toContain('messages.content');
    for (const memoryWord of [words.fact, words.old, words.new, words.summary])
      expect(
        (found[memoryWord] ?? []).filter((at) => at !== 'undoable_changes.snapshot'),
        memoryWord,
      ).toEqual([]);
    await expectErasedButLogged(staff, userId);
  });
});
