import { afterEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { GET as listMessages } from '@/app/api/conversations/[id]/messages/route';
import { DELETE as clearSummary, GET as getSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as undo } from '@/app/api/corrections/[id]/undo/route';
import { DELETE as forgetEpisode } from '@/app/api/episodes/[id]/route';
import { DELETE as deleteFact, PATCH as editFact } from '@/app/api/facts/[id]/route';
import { DELETE as forgetAll } from '@/app/api/memory/route';
import { GET as memoryChanges } from '@/app/api/messages/[id]/memory-changes/route';
import { DELETE as removeMessage } from '@/app/api/messages/[id]/route';
import { getSql } from '@/db/client';
import { previewContext } from '@/lib/memory/context/preview';
import { correctFact } from '@/lib/memory/corrections';
import { type Client, newClient, params, readChunks, setEnv } from '@/tests/support/app';
import { activeFacts, fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

// Undo of every correction through the real routes: what the correction took away is recalled
// again, once; a second undo, an expired one and another user's are refused.

afterEach(() => setEnv({ SUMMARY_KEEP_RAW: undefined, HISTORY_WINDOW: undefined }));

type UndoRef = { id: string; expiresAt: string };

async function undoIt(client: Client, ref: UndoRef) {
  const response = await undo(client.request(`/api/corrections/${ref.id}/undo`, { method: 'POST' }), params({ id: ref.id }));
  await postTurnSettled(client.user.id);
  return { status: response.status, body: await response.json() };
}

/** The memory blocks a question in this conversation would be given (facts, summary, episodes). */
async function recalled(client: Client, conversationId: string, question: string) {
  const state = await previewContext({ userId: client.user.id, conversationId }, question);
  return JSON.stringify(state.numbered);
}

const call = async (response: Response) => ({ status: response.status, body: await response.json() });

const factId = async (client: Client, words: string) =>
  (await getSql()`select id from facts where user_id = ${client.user.id} and status = 'active' and content like ${`%${words}%`}`)[0]
    ?.id as string;

describe('undo of each correction', () => {
  it('a deleted fact comes back, with its sources, and a second undo is a 409', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['I have a tortoise named Pebble.', 'Sweet.']]);
    const id = await factId(client, 'Pebble');
    const deleted = await call(await deleteFact(client.request(`/api/facts/${id}`, { method: 'DELETE' }), params({ id })));
    expect(deleted.body.undo.expiresAt > new Date().toISOString()).toBe(true);
    expect(await recalled(client, conversationId, 'What is my pet called?')).not.toContain('Pebble');

    expect((await undoIt(client, deleted.body.undo)).status).toBe(200);
    expect(await activeFacts(client.user.id)).toEqual([expect.stringContaining('Pebble')]);
    expect(await getSql()`select 1 from memory_sources where fact_id = ${id}`).toHaveLength(1);
    expect(await getSql()`select 1 from message_redactions where user_id = ${client.user.id}`).toHaveLength(0);
    expect(await recalled(client, conversationId, 'What is my pet called?')).toContain('Pebble');

    const again = await undoIt(client, deleted.body.undo);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_undone');
  });

  it('an edited fact gets its old words back (Chinese)', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [['我住在杭州。', '好的。']]);
    const id = await factId(client, '杭州');
    const edited = await call(
      await editFact(client.request(`/api/facts/${id}`, { method: 'PATCH', body: { content: '我住在成都。' } }), params({ id })),
    );
    expect(edited.body.fact.content).toBe('我住在成都。');
    expect((await undoIt(client, edited.body.undo)).status).toBe(200);
    expect(await activeFacts(client.user.id)).toEqual(['我住在杭州']);
    expect(await getSql()`select 1 from message_redactions where user_id = ${client.user.id}`).toHaveLength(0);
  });

  it('a forgotten exchange is indexed again and recalled', async () => {
    const client = await newClient();
    setEnv({ SUMMARY_KEEP_RAW: '4', HISTORY_WINDOW: '4' });
    const conversationId = await importTurns(client.user.id, [
      ['I rebuilt the carburettor of my old Vespa this weekend.', 'Well done.'],
      ...fillerTurns(4),
    ]);
    const [episode] = await getSql()`select id from episodes where user_id = ${client.user.id} and content like '%carburettor%'`;
    const forgotten = await call(
      await forgetEpisode(client.request(`/api/episodes/${episode.id}`, { method: 'DELETE' }), params({ id: episode.id })),
    );
    expect(await recalled(client, conversationId, 'What did I fix on the Vespa?')).not.toContain('carburettor');
    expect((await undoIt(client, forgotten.body.undo)).status).toBe(200);
    expect(await getSql()`select 1 from episodes where user_id = ${client.user.id} and content like '%carburettor%'`).toHaveLength(1);
    expect(await recalled(client, conversationId, 'What did I fix on the Vespa?')).toContain('carburettor');
  });

  it('a cleared summary is rebuilt from the messages it had covered', async () => {
    const client = await newClient();
    setEnv({ SUMMARY_KEEP_RAW: '4' });
    const conversationId = await importTurns(client.user.id, [['My kayak is a red Prijon.', 'Nice.'], ...fillerTurns(5)]);
    const url = `/api/conversations/${conversationId}/summary`;
    const cleared = await call(await clearSummary(client.request(url, { method: 'DELETE' }), params({ id: conversationId })));
    expect(cleared.body.summary.content).toBe('');
    expect((await undoIt(client, cleared.body.undo)).status).toBe(200);
    const summary = (await (await getSummary(client.request(url), params({ id: conversationId }))).json()).summary;
    expect(summary.content).toContain('Prijon');
    expect(summary.floorSeq).toBe(0);
  });

  it('a deleted message is back in its place, with the fact it stated', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [
      ['I have a hamster named Biscuit.', 'Cute.'],
      ['I live in Ghent.', 'Nice.'],
    ]);
    const before = (
      await (await listMessages(client.request(`/api/conversations/${conversationId}/messages`), params({ id: conversationId }))).json()
    ).messages;
    const [hamster] = await getSql()`select id from messages where conversation_id = ${conversationId} and content like '%Biscuit%'`;
    const removed = await call(
      await removeMessage(client.request(`/api/messages/${hamster.id}`, { method: 'DELETE' }), params({ id: hamster.id })),
    );
    expect((await activeFacts(client.user.id)).join()).not.toContain('Biscuit');
    expect((await undoIt(client, removed.body.undo)).status).toBe(200);
    const after = (
      await (await listMessages(client.request(`/api/conversations/${conversationId}/messages`), params({ id: conversationId }))).json()
    ).messages;
    expect(after.map((m: { id: string }) => m.id)).toEqual(before.map((m: { id: string }) => m.id));
    expect((await activeFacts(client.user.id)).join()).toContain('Biscuit');
    expect(await recalled(client, conversationId, 'What is my hamster called?')).toContain('Biscuit');
  });

  it('forget everything is undone: facts, episodes and summaries come back', async () => {
    const client = await newClient();
    setEnv({ SUMMARY_KEEP_RAW: '4' });
    const conversationId = await importTurns(client.user.id, [['My favourite band is the Bassoon Quartet.', 'Lovely.'], ...fillerTurns(5)]);
    const forgot = await call(await forgetAll(client.request('/api/memory', { method: 'DELETE' })));
    expect(await activeFacts(client.user.id)).toEqual([]);
    expect((await undoIt(client, forgot.body.undo)).status).toBe(200);
    expect((await activeFacts(client.user.id)).join()).toContain('Bassoon Quartet');
    expect(await getSql()`select 1 from episodes where user_id = ${client.user.id} and content like '%Bassoon Quartet%'`).toHaveLength(1);
    expect(await getSql()`select 1 from summaries where user_id = ${client.user.id} and content like '%Bassoon Quartet%'`).toHaveLength(1);
    expect(await recalled(client, conversationId, 'Which band do I like best?')).toContain('Bassoon Quartet');
  });
});

describe('undo refused', () => {
  it('another user gets a 404, an expired change a 410 and its snapshot is erased', async () => {
    const owner = await newClient();
    const stranger = await newClient();
    await importTurns(owner.user.id, [['My brother is called Ines.', 'Nice.']]);
    const id = await factId(owner, 'Ines');
    const deleted = await call(await deleteFact(owner.request(`/api/facts/${id}`, { method: 'DELETE' }), params({ id })));
    expect((await undoIt(stranger, deleted.body.undo)).status).toBe(404);
    await getSql()`update undoable_changes set expires_at = now() - interval '1 second' where id = ${deleted.body.undo.id}`;
    const expired = await undoIt(owner, deleted.body.undo);
    expect(expired.status).toBe(410);
    expect(expired.body.error.code).toBe('undo_expired');
    expect(await activeFacts(owner.user.id)).toEqual([]);
    // The next change recorded, anyone's, erases what the expired one kept.
    await importTurns(stranger.user.id, [['I live in Tromsø.', 'Cold.']]);
    const [kept] = await getSql()`select snapshot from undoable_changes where id = ${deleted.body.undo.id}`;
    expect(kept.snapshot).toBeNull();
  });

  it('a change someone else made about the user (staff) is not the user’s to undo', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [['I live in Bergen.', 'Nice.']]);
    const id = await factId(client, 'Bergen');
    const staff = await newClient();
    const edited = await correctFact(client.user.id, id, 'I live in Stavanger.', `user:${staff.user.id}`);
    expect((await undoIt(client, edited!.undo)).status).toBe(404);
    expect(await activeFacts(client.user.id)).toEqual(['I live in Stavanger.']);
  });

  it('an older correction waits while a later one that touched the same memory stands', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [['I work at Alvarez Dental.', 'Noted.']]);
    const id = await factId(client, 'Alvarez');
    const edited = await call(
      await editFact(
        client.request(`/api/facts/${id}`, { method: 'PATCH', body: { content: 'I work at Moreau Dental.' } }),
        params({ id }),
      ),
    );
    const deleted = await call(await deleteFact(client.request(`/api/facts/${id}`, { method: 'DELETE' }), params({ id })));
    const blocked = await undoIt(client, edited.body.undo);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe('undo_blocked');
    expect(await activeFacts(client.user.id)).toEqual([]);
    expect((await undoIt(client, deleted.body.undo)).status).toBe(200);
    expect((await undoIt(client, edited.body.undo)).status).toBe(200);
    expect(await activeFacts(client.user.id)).toEqual(['I work at Alvarez Dental']);
  });
});

describe('what a reply changed in memory', () => {
  async function ask(client: Client, conversationId: string, text: string): Promise<string> {
    const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
    await postTurnSettled(client.user.id);
    return chunks.find((c) => c.type === 'start')!.messageId as string;
  }
  const changesOf = async (client: Client, replyId: string) =>
    (await memoryChanges(client.request(`/api/messages/${replyId}/memory-changes`), params({ id: replyId }))).json();

  it('lists a learned and a replaced fact with their source message, and undoing the replacement makes the old fact current', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['How are you?', 'Fine.']]);
    const first = await ask(client, conversationId, 'I live in Porto.');
    const learned = await changesOf(client, first);
    expect(learned.pending).toBe(false);
    expect(learned.changes).toEqual([expect.objectContaining({ kind: 'learned', text: 'I live in Porto', undone: false })]);
    const [question] = await getSql()`select id from messages where content = 'I live in Porto.' and user_id = ${client.user.id}`;
    expect(learned.changes[0].sourceMessageId).toBe(question.id);

    const second = await ask(client, conversationId, 'I moved, I live in Lyon now.');
    const replaced = (await changesOf(client, second)).changes;
    expect(replaced).toEqual([expect.objectContaining({ kind: 'replaced', previousText: 'I live in Porto' })]);
    expect(replaced[0].text).toContain('Lyon');
    expect((await undoIt(client, replaced[0].undo)).status).toBe(200);
    expect(await activeFacts(client.user.id)).toEqual(['I live in Porto']);
    expect((await changesOf(client, second)).changes[0]).toMatchObject({ undone: true, undo: null });
  });

  it('a stranger cannot read another user’s reply changes', async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const conversationId = await importTurns(owner.user.id, [['Hi.', 'Hello.']]);
    const reply = await ask(owner, conversationId, 'My cat is called Tofu.');
    expect((await memoryChanges(stranger.request(`/api/messages/${reply}/memory-changes`), params({ id: reply }))).status).toBe(404);
  });
});
