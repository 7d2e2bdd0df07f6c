import { beforeAll, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as clearMessages, GET as listMessages } from '@/app/api/conversations/[id]/messages/route';
import { DELETE as deleteConversation, GET as getConversation, PATCH as renameConversation } from '@/app/api/conversations/[id]/route';
import { POST as createConversation, GET as listConversations } from '@/app/api/conversations/route';
import { DELETE as deleteMessage, GET as getMessage } from '@/app/api/messages/[id]/route';
import { type Client, newClient, params, readChunks, storedMessages } from '@/tests/support/app';

// Every user-scoped query filters by the signed-in user: another user's ids do not exist for you.
let alice: Client;
let mallory: Client;
let conversationId: string;
let messageId: string;

beforeAll(async () => {
  alice = await newClient();
  mallory = await newClient();
  conversationId = (await (await createConversation(alice.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
  await readChunks(await chat(alice.request('/api/chat', { body: { conversationId, message: { text: 'My secret plan' } } })));
  messageId = (await storedMessages(conversationId))[0].id;
});

describe("another user's conversations and messages", () => {
  it('are not listed', async () => {
    const mine = await (await listConversations(mallory.request('/api/conversations'))).json();
    expect(mine.conversations).toEqual([]);
    const hers = await (await listConversations(alice.request('/api/conversations'))).json();
    expect(hers.conversations.map((c: { id: string }) => c.id)).toEqual([conversationId]);
    expect(hers.conversations[0].title).toBe('My secret plan');
  });

  const attempts: Array<[string, () => Promise<Response>]> = [
    ['get conversation', () => getConversation(mallory.request(`/api/conversations/${conversationId}`), params({ id: conversationId }))],
    [
      'rename conversation',
      () =>
        renameConversation(
          mallory.request(`/api/conversations/${conversationId}`, { method: 'PATCH', body: { title: 'pwned' } }),
          params({ id: conversationId }),
        ),
    ],
    ['list messages', () => listMessages(mallory.request(`/api/conversations/${conversationId}/messages`), params({ id: conversationId }))],
    [
      'clear messages',
      () =>
        clearMessages(
          mallory.request(`/api/conversations/${conversationId}/messages`, { method: 'DELETE' }),
          params({ id: conversationId }),
        ),
    ],
    ['get message', () => getMessage(mallory.request(`/api/messages/${messageId}`), params({ id: messageId }))],
    ['delete message', () => deleteMessage(mallory.request(`/api/messages/${messageId}`, { method: 'DELETE' }), params({ id: messageId }))],
    [
      'delete conversation',
      () =>
        deleteConversation(mallory.request(`/api/conversations/${conversationId}`, { method: 'DELETE' }), params({ id: conversationId })),
    ],
  ];

  it.each(attempts)('%s → 404, and nothing changes', async (_, attempt) => {
    const before = await storedMessages(conversationId);
    const response = await attempt();
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
    expect(await storedMessages(conversationId)).toEqual(before);
    const hers = await (
      await getConversation(alice.request(`/api/conversations/${conversationId}`), params({ id: conversationId }))
    ).json();
    expect(hers.conversation.title).toBe('My secret plan');
  });

  it('the owner can do all of it', async () => {
    const renamed = await renameConversation(
      alice.request(`/api/conversations/${conversationId}`, { method: 'PATCH', body: { title: 'Plans' } }),
      params({ id: conversationId }),
    );
    expect((await renamed.json()).conversation.title).toBe('Plans');
    const listed = await (
      await listMessages(alice.request(`/api/conversations/${conversationId}/messages`), params({ id: conversationId }))
    ).json();
    expect(listed.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect((await deleteMessage(alice.request(`/api/messages/${messageId}`, { method: 'DELETE' }), params({ id: messageId }))).status).toBe(
      200,
    );
    expect(await storedMessages(conversationId)).toHaveLength(1);
    const cleared = await clearMessages(
      alice.request(`/api/conversations/${conversationId}/messages`, { method: 'DELETE' }),
      params({ id: conversationId }),
    );
    expect((await cleared.json()).removed).toBe(1);
    expect(
      (
        await deleteConversation(
          alice.request(`/api/conversations/${conversationId}`, { method: 'DELETE' }),
          params({ id: conversationId }),
        )
      ).status,
    ).toBe(200);
    expect((await getConversation(alice.request(`/api/conversations/${conversationId}`), params({ id: conversationId }))).status).toBe(404);
  });

  it('a malformed id is a 404, not a 500', async () => {
    const response = await getConversation(alice.request('/api/conversations/not-a-uuid'), params({ id: 'not-a-uuid' }));
    expect(response.status).toBe(404);
  });
});

describe('creating a conversation', () => {
  it('works with an empty body, a title, and refuses bad JSON', async () => {
    const client = await newClient();
    const empty = await createConversation(
      new Request('http://localhost/api/conversations', { method: 'POST', headers: { cookie: client.cookie } }),
    );
    expect(empty.status).toBe(201);
    expect((await empty.json()).conversation.title).toBe('New conversation');
    const titled = await createConversation(client.request('/api/conversations', { method: 'POST', body: { title: 'Trip' } }));
    expect((await titled.json()).conversation.title).toBe('Trip');
    const bad = await createConversation(client.request('/api/conversations', { method: 'POST', rawBody: '{"title":' }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_json');
  });
});

describe("a conversation's title from its first question", () => {
  it('is cut between characters, never inside one: an emoji or a tag character across the cut stays whole or goes', async () => {
    const client = await newClient();
    const id = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
    // 59 letters, then characters outside the Basic Multilingual Plane (two UTF-16 units each) across the 60th.
    const question = `${'a'.repeat(59)}\u{1F600}\u{E0041}\u{E0042} and more after the cut`;
    await readChunks(await chat(client.request('/api/chat', { body: { conversationId: id, message: { text: question } } })));
    const { conversation } = await (await getConversation(client.request(`/api/conversations/${id}`), params({ id }))).json();
    expect(conversation.title).toBe(`${'a'.repeat(59)}\u{1F600}`);
    expect(conversation.title).not.toContain('\uFFFD');
  });
});
