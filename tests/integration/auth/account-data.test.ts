import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { PATCH as editFact } from '@/app/api/facts/[id]/route';
import { GET as listFacts } from '@/app/api/facts/route';
import { GET as exportMine, POST as postExport } from '@/app/api/me/export/route';
import { DELETE as deleteMe } from '@/app/api/me/route';
import { getSql } from '@/db/client';
import { type Client, newClient, params, readChunks } from '@/tests/support/app';
import { browser, email, signUp } from '@/tests/support/auth';
import { fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

// "Export my data" and "delete my account" through the real routes: the export holds everything the
// signed-in user owns (conversations with their messages and summary, facts with their history,
// remembered exchanges, turn records) and nothing of anyone else's; a deletion takes the sign-in too.

type Export = {
  format: string;
  user: { id: string; kind: string };
  conversations: Array<{
    id: string;
    title: string;
    messages: Array<{ id: string; role: string; content: string }>;
    summary: { content: string } | null;
    summaryHistory: unknown[];
  }>;
  facts: Array<{ id: string; content: string; status: string; history: Array<{ event: string; oldContent: string | null }> }>;
  episodes: Array<{ content: string; conversationId: string }>;
  turnRecords: Array<{ assistantMessageId: string; conversationId: string; record: unknown }>;
};

async function exported(client: Client): Promise<{ response: Response; body: Export }> {
  const response = await exportMine(client.request('/api/me/export'));
  return { response, body: (await response.clone().json()) as Export };
}

async function chatTurn(client: Client, text: string) {
  const created = await createConversation(client.request('/api/conversations', { method: 'POST' }));
  const conversationId = (await created.json()).conversation.id as string;
  await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  return conversationId;
}

describe('export my data', () => {
  it("holds the user's conversations, messages, facts with their history, episodes, summaries and turn records, and nothing of another user", async () => {
    const ann = await newClient();
    const chatted = await chatTurn(ann, 'My sister Ottilie teaches cello in Ghent.');
    const imported = await importTurns(ann.user.id, [['我的狗叫豆豆。', '好的。'], ...fillerTurns(12)], 'Dogs and chores');
    await importTurns(ann.user.id, [['I live in Tromsø.', 'Noted.']], 'Where I live');
    await postTurnSettled(ann.user.id);
    const [tromso] = (await (await listFacts(ann.request('/api/facts?q=Troms'))).json()).facts as Array<{ id: string }>;
    expect(
      (
        await editFact(
          ann.request(`/api/facts/${tromso.id}`, { method: 'PATCH', body: { content: 'I live in Bodø.' } }),
          params({ id: tromso.id }),
        )
      ).status,
    ).toBe(200);

    const bo = await newClient();
    await chatTurn(bo, 'My brother Sigismund repairs trams in Graz.');
    await importTurns(bo.user.id, [['我的猫叫咪咪。', '好的。']], 'Cats');
    await postTurnSettled(bo.user.id);

    const { response, body } = await exported(ann);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="memlens-export-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(body.format).toBe('memlens-export');
    expect(body.user).toMatchObject({ id: ann.user.id, kind: 'guest' });

    expect(body.conversations.map((c) => c.id).sort()).toHaveLength(3);
    const first = body.conversations.find((c) => c.id === chatted)!;
    expect(first.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(first.messages[0].content).toBe('My sister Ottilie teaches cello in Ghent.');
    const dogs = body.conversations.find((c) => c.id === imported)!;
    expect(dogs.title).toBe('Dogs and chores');
    expect(dogs.messages[0].content).toBe('我的狗叫豆豆。');
    expect(dogs.messages).toHaveLength(26);
    // 26 messages are past the point where a conversation gets its rolling summary.
    expect(dogs.summary?.content).toBeTruthy();
    expect(dogs.summaryHistory.length).toBeGreaterThan(0);

    const bodo = body.facts.find((f) => f.content === 'I live in Bodø.')!;
    expect(bodo.history.map((e) => e.event)).toEqual(['ADD', 'EDIT']);
    expect(bodo.history[1].oldContent).toContain('Tromsø');
    expect(body.facts.some((f) => f.content.includes('豆豆'))).toBe(true);
    expect(body.episodes.some((e) => e.content.includes('豆豆'))).toBe(true);
    expect(body.turnRecords.map((t) => t.conversationId)).toContain(chatted);
    expect(JSON.stringify(body.turnRecords)).toContain('Ottilie');

    // Nothing of the other user: not their words, not their id, no row of theirs.
    const text = JSON.stringify(body);
    for (const word of ['Sigismund', 'Graz', '咪咪', bo.user.id]) expect(text).not.toContain(word);
    // Vectors are derived data, left out.
    expect(text).not.toContain('embedding');

    const theirs = (await exported(bo)).body;
    expect(theirs.user.id).toBe(bo.user.id);
    expect(JSON.stringify(theirs)).not.toContain('Ottilie');
  });

  it('without a session there is nothing to export and nobody is made; other methods are refused', async () => {
    const nobody = browser();
    const response = await exportMine(nobody.request('/api/me/export'));
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('no_session');
    expect(response.headers.getSetCookie()).toEqual([]);
    const client = await newClient();
    const posted = await postExport(client.request('/api/me/export', { method: 'POST', body: {} }));
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toContain('GET');
  });
});

describe('delete my account', () => {
  it('removes the user, everything they own and their sign-in; the audit log keeps how much went, not what', async () => {
    const b = browser();
    const address = email();
    await signUp(b, { email: address, password: 'a long secret phrase', name: 'Cai' });
    const created = await createConversation(b.request('/api/conversations', { method: 'POST' }));
    const conversationId = (await created.json()).conversation.id as string;
    await readChunks(await chat(b.request('/api/chat', { body: { conversationId, message: { text: 'I keep bees on a roof in Lyon.' } } })));
    const [{ id: userId }] = await getSql()`select id from users where email = ${address}`;
    await postTurnSettled(userId);
    expect(await (await b.auth('get-session')).json()).not.toBeNull();
    expect((await browser().auth('sign-in/email', { email: address, password: 'a long secret phrase' })).status).toBe(200);

    const deleted = await deleteMe(b.request('/api/me', { method: 'DELETE' }));
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: userId });
    for (const table of ['users', 'conversations', 'messages', 'facts', 'turn_records']) {
      const column = table === 'users' ? 'id' : 'user_id';
      expect(await getSql()`select 1 from ${getSql()(table)} where ${getSql()(column)} = ${userId}`, table).toHaveLength(0);
    }
    expect(await getSql()`select 1 from auth_users where email = ${address}`).toHaveLength(0);
    // The session went with it, and the password no longer signs in.
    expect(await (await b.auth('get-session')).json()).toBeNull();
    expect((await browser().auth('sign-in/email', { email: address, password: 'a long secret phrase' })).status).toBe(401);

    const [entry] = await getSql()`select * from audit_log where target_user_id = ${userId} and action = 'delete' and object_type = 'user'`;
    expect(entry.before).toMatchObject({ kind: 'member', conversations: 1, messages: 2 });
    expect(JSON.stringify(entry)).not.toContain('bees');
  });
});
