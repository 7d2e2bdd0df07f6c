import { beforeEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { PATCH as renameConversation } from '@/app/api/conversations/[id]/route';
import { newClient, params, readChunks, setEnv, storedMessages, type Client } from './support/app';

let client: Client;
let conversationId: string;

beforeEach(async () => {
  client = await newClient();
  conversationId = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
  // One stored exchange that no bad request may disturb.
  await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text: 'Keep me' } } })));
});

const cases: Array<{ name: string; body: () => unknown; raw?: string; status: number; code: string; mentions: string }> = [
  { name: 'invalid JSON', body: () => undefined, raw: '{"conversationId": ', status: 400, code: 'invalid_json', mentions: 'JSON' },
  { name: 'a missing message', body: () => ({ conversationId }), status: 400, code: 'missing', mentions: 'message' },
  { name: 'an empty message', body: () => ({ conversationId, message: { text: '   ' } }), status: 400, code: 'empty', mentions: 'message.text' },
  { name: 'a message that is not text', body: () => ({ conversationId, message: { text: 42 } }), status: 400, code: 'invalid', mentions: 'message.text' },
  { name: 'a message over the size limit', body: () => ({ conversationId, message: { text: 'x'.repeat(32_001) } }), status: 400, code: 'too_large', mentions: '32000' },
  { name: 'a conversation id that is not a uuid', body: () => ({ conversationId: 'abc', message: { text: 'hi' } }), status: 400, code: 'invalid', mentions: 'conversationId' },
  { name: 'an unknown conversation id', body: () => ({ conversationId: crypto.randomUUID(), message: { text: 'hi' } }), status: 404, code: 'not_found', mentions: 'Conversation' },
  { name: 'an unknown trigger', body: () => ({ conversationId, trigger: 'explode' }), status: 400, code: 'invalid', mentions: 'trigger' },
];

describe('bad input to POST /api/chat gets a 4xx JSON error and writes nothing', () => {
  it.each(cases)('$name → $status $code', async ({ body, raw, status, code, mentions }) => {
    const before = await storedMessages(conversationId);
    const response = await chat(client.request('/api/chat', raw ? { rawBody: raw } : { body: body() }));
    expect(response.status).toBe(status);
    const json = await response.json();
    expect(json.error.code).toBe(code);
    expect(json.error.message).toContain(mentions);
    expect(await storedMessages(conversationId)).toEqual(before);
  });

  it("another user's conversation is a 404, and nothing is written to it", async () => {
    const stranger = await newClient();
    const before = await storedMessages(conversationId);
    const response = await chat(stranger.request('/api/chat', { body: { conversationId, message: { text: 'let me in' } } }));
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
    expect(await storedMessages(conversationId)).toEqual(before);
  });

  it("editing another conversation's message id is a 404 and changes nothing", async () => {
    const other = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
    const [question] = await storedMessages(conversationId);
    const response = await chat(client.request('/api/chat', { body: { conversationId: other, message: { id: question.id, text: 'hijack' } } }));
    expect(response.status).toBe(404);
    expect((await storedMessages(conversationId))[0].content).toBe('Keep me');
    expect(await storedMessages(other)).toEqual([]);
  });

  it('editing an assistant message is refused with 409', async () => {
    const [, answer] = await storedMessages(conversationId);
    const response = await chat(client.request('/api/chat', { body: { conversationId, message: { id: answer.id, text: 'no' } } }));
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('not_a_user_message');
  });

  it('the size limit is configurable', async () => {
    setEnv({ MAX_MESSAGE_CHARS: '10' });
    try {
      const response = await chat(client.request('/api/chat', { body: { conversationId, message: { text: 'eleven chars' } } }));
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toContain('10 characters');
    } finally {
      setEnv({ MAX_MESSAGE_CHARS: undefined });
    }
  });

  it('a request without a session cookie is a 401', async () => {
    const response = await chat(new Request('http://localhost/api/chat', { method: 'POST', body: '{}' }));
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('no_session');
  });

  it('an empty title is refused on rename', async () => {
    const response = await renameConversation(client.request(`/api/conversations/${conversationId}`, { method: 'PATCH', body: { title: ' ' } }), params({ id: conversationId }));
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain('title');
  });
});
