import { beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { getSql } from '@/db/client';
import { type Client, newClient, parseChunks, readChunks, readUntil, storedMessages, textOf } from '@/tests/support/app';
import { type ChatCompletionRequest, type OpenAIStub, serveOpenAIStub } from '@/tests/support/openai-stub';

// The first byte of a reply is sent once the question and the reply's row are stored, before the
// context is assembled; what comes after it (the context, the turn record) can still fail, and then
// the question stays and the reply ends `failed` with the reason shown.

/** Set by a test: the next context assembly fails as a lost database connection would. */
const assembly = vi.hoisted(() => ({ failNext: false }));
vi.mock('@/lib/memory/context/chain', async (importOriginal) => {
  const chain = await importOriginal<typeof import('@/lib/memory/context/chain')>();
  return {
    ...chain,
    assembleContext: async (...args: Parameters<typeof chain.assembleContext>) => {
      if (assembly.failNext) {
        assembly.failNext = false;
        throw new Error('the connection to the database was lost');
      }
      return chain.assembleContext(...args);
    },
  };
});

// Long enough that a first byte sent after the context (which waits this long for a stuck embedder) cannot pass for an early one.
const EMBED_TIMEOUT_MS = 3000;

let stub: OpenAIStub;
let client: Client;
let conversationId: string;

serveOpenAIStub({ CHAT_MODEL: 'stub-chat', EMBED_TIMEOUT_MS: String(EMBED_TIMEOUT_MS) }, (started) => {
  stub = started;
});
beforeEach(async () => {
  client = await newClient();
  conversationId = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
  stub.reply = { text: 'The heron nests by the mill pond.' };
  stub.embeddingHang = false;
  stub.requests.length = 0;
  assembly.failNext = false;
});

const isChatCall = (body: ChatCompletionRequest) => body.model === 'stub-chat';

function send(body: Record<string, unknown>) {
  return chat(client.request('/api/chat', { body: { conversationId, ...body } }));
}

describe('the first byte of a reply', () => {
  it('comes before the context: while the embedder is stuck the client already has the reply id and the question is stored', async () => {
    stub.embeddingHang = true;
    const sent = performance.now();
    const response = await send({ message: { text: 'Where does the heron nest?' } });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = await readUntil(reader, (text) => text.includes('"type":"start"'));
    const startedMs = performance.now() - sent;
    const start = parseChunks(buffered).find((c) => c.type === 'start')!;

    // Nothing of the context yet: no turn record, no call to the chat model.
    expect(parseChunks(buffered).map((c) => c.type)).toEqual(['start']);
    expect(stub.requests.filter(isChatCall)).toEqual([]);
    expect((await storedMessages(conversationId)).map((m) => [m.id, m.role, m.status, m.content])).toEqual([
      [start.messageMetadata.userMessageId, 'user', 'complete', 'Where does the heron nest?'],
      [start.messageId, 'assistant', 'streaming', ''],
    ]);

    for (let next = await reader.read(); !next.done; next = await reader.read()) buffered += next.value;
    const chunks = parseChunks(buffered);
    // The context waited for the embedder's timeout; the first byte did not.
    expect(performance.now() - sent).toBeGreaterThanOrEqual(EMBED_TIMEOUT_MS);
    expect(startedMs).toBeLessThan(EMBED_TIMEOUT_MS);
    expect(chunks.map((c) => c.type).filter((type) => type === 'start' || type === 'data-turn')).toEqual([
      'start',
      'data-turn',
      'data-turn',
    ]);
    expect(textOf(chunks)).toBe('The heron nests by the mill pond.');
    const record = chunks.filter((c) => c.type === 'data-turn').at(-1)!.data;
    expect(record.warnings.join('\n')).toMatch(/embedding the query timed out/);

    // The stored record is the final one, stored once the reply ended.
    const [stored] = await getSql()`select record from turn_records where assistant_message_id = ${start.messageId}`;
    expect(stored.record).toMatchObject({ status: 'complete', requestId: start.messageMetadata.requestId });
  });

  it('keeps the question and ends the reply `failed` when the context cannot be assembled after it; Retry answers', async () => {
    assembly.failNext = true;
    const chunks = await readChunks(await send({ message: { text: '苍鹭在哪里筑巢？' } }));
    const start = chunks.find((c) => c.type === 'start')!;
    expect(chunks.map((c) => c.type)).toEqual(['start', 'error']);
    expect(chunks[1].errorText).toBe('Could not assemble the context: the connection to the database was lost');
    expect(stub.requests.filter(isChatCall)).toEqual([]);
    const stored = await storedMessages(conversationId);
    expect(stored.map((m) => [m.id, m.role, m.status, m.content])).toEqual([
      [start.messageMetadata.userMessageId, 'user', 'complete', '苍鹭在哪里筑巢？'],
      [start.messageId, 'assistant', 'failed', ''],
    ]);
    expect(stored[1].error).toContain('the connection to the database was lost');

    const retried = await readChunks(await send({ trigger: 'regenerate-message' }));
    expect(retried.find((c) => c.type === 'start')!.messageId).toBe(start.messageId);
    expect(textOf(retried)).toBe('The heron nests by the mill pond.');
    expect((await storedMessages(conversationId)).map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
  });
});
