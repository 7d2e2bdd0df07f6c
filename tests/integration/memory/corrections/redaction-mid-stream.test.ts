import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { DELETE as deleteFact } from '@/app/api/facts/[id]/route';
import { POST as addFact } from '@/app/api/facts/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { getCitations } from '@/db/turns';
import { newClient, params, parseChunks, readUntil, waitFor } from '@/tests/support/app';
import { type OpenAIStub, serveOpenAIStub } from '@/tests/support/openai-stub';

// A turn record is stored as the model is called and finished when the reply ends. A fact deleted
// while the reply streams is redacted from the stored record at once; the end of the turn adds its
// own fields (status, usage, citations) and must not write the deleted text back.

let stub: OpenAIStub;

serveOpenAIStub({ CHAT_MODEL: 'stub-chat' }, (started) => {
  stub = started;
});

describe('a fact deleted while the reply that recalled it streams', () => {
  it.each([
    { fact: 'My bike lock combination is 7302.', secret: '7302', question: 'What is the combination of my bike lock?' },
    { fact: '我的储物柜密码是五八六一。', secret: '五八六一', question: '我的储物柜密码是多少？' },
  ])('stays redacted in the finished record and citations ($secret)', async ({ fact, secret, question }) => {
    const client = await newClient();
    const conversationId = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation
      .id;
    const added = await addFact(client.request('/api/facts', { body: { content: fact } }));
    expect(added.status).toBe(201);
    const factId = (await added.json()).fact.id as string;
    // Slow enough that the deletion lands while the reply is still being written.
    stub.reply = { text: 'Let me look through what you told me before answering that one.', chunkDelayMs: 60 };

    const response = await chat(client.request('/api/chat', { body: { conversationId, message: { text: question } } }));
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let streamed = await readUntil(reader, (text) => text.includes('"type":"text-delta"'));
    const replyId = parseChunks(streamed).find((c) => c.type === 'start')!.messageId as string;
    const contextOf = async () =>
      (await (await getContext(client.request(`/api/messages/${replyId}/context`), params({ id: replyId }))).json()).context;
    // The record as stored at the model call holds the fact.
    await waitFor(async () => JSON.stringify((await contextOf()) ?? {}).includes(secret));

    const deleted = await deleteFact(client.request(`/api/facts/${factId}`, { method: 'DELETE' }), params({ id: factId }));
    expect(deleted.status).toBe(200);
    streamed = await readUntil(reader, (text) => text.includes('"type":"finish"'));

    const final = await contextOf();
    expect(final.status).toBe('complete');
    expect(JSON.stringify(final)).not.toContain(secret);
    expect(final.redactions.length).toBeGreaterThan(0);
    const lastTurnChunk = parseChunks(streamed).findLast((c) => c.type === 'data-turn')!;
    expect(lastTurnChunk.data.status).toBe('complete');
    expect(JSON.stringify(lastTurnChunk.data)).not.toContain(secret);
    const citations = await getCitations(client.user.id, replyId);
    expect(citations).toHaveLength(1);
    expect(JSON.stringify(citations[0].items)).not.toContain(secret);
  });
});
