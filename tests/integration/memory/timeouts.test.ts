import { beforeEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { getSql } from '@/db/client';
import { addFact } from '@/db/facts';
import { fitToStoredSize } from '@/lib/memory/embed';
import { indexTerms } from '@/lib/text/index-terms';
import { type Client, newClient, readChunks, storedMessages, textOf, waitFor } from '@/tests/support/app';
import { postTurnSettled } from '@/tests/support/memory';
import { type ChatCompletionRequest, type OpenAIStub, serveOpenAIStub } from '@/tests/support/openai-stub';

// A model or embedder that hangs, through @ai-sdk/openai against a stub server on 127.0.0.1.
// Every timeout is TIMEOUT_MS here; a turn must end within it plus SLACK_MS (the suite's machine is slow).
const TIMEOUT_MS = 300;
const SLACK_MS = 4700;
const TIMEOUTS = {
  EMBED_TIMEOUT_MS: String(TIMEOUT_MS),
  MEMORY_MODEL_TIMEOUT_MS: String(TIMEOUT_MS),
  CHAT_FIRST_TOKEN_TIMEOUT_MS: String(TIMEOUT_MS),
  CHAT_IDLE_TIMEOUT_MS: String(TIMEOUT_MS),
};

let stub: OpenAIStub;
let client: Client;
let conversationId: string;

serveOpenAIStub({ CHAT_MODEL: 'stub-chat', MEMORY_MODEL: 'stub-memory', ...TIMEOUTS }, (started) => {
  stub = started;
});
beforeEach(async () => {
  client = await newClient();
  conversationId = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
  stub.reply = { text: 'She lives in Porto.' };
  stub.respond = undefined;
  stub.embeddingHang = false;
});

/** The chat route's response to a message, which must start within the bound. */
function send(text: string, signal?: AbortSignal) {
  return within(
    TIMEOUT_MS + SLACK_MS,
    chat(client.request('/api/chat', { body: { conversationId, message: { text } }, signal })),
    'the response to start',
  );
}

/** The whole streamed reply, which must end within the bound. */
async function reply(response: Response) {
  return within(TIMEOUT_MS + SLACK_MS, readChunks(response), 'the reply to end');
}

function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${ms} ms for ${what}`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const lastRecord = (chunks: Array<Record<string, any>>) => chunks.filter((c) => c.type === 'data-turn').at(-1)!.data;
const isChatCall = (body: ChatCompletionRequest) => body.model === 'stub-chat';
const systemOf = (body: ChatCompletionRequest) => String(body.messages.find((m) => m.role === 'system')?.content ?? '');

async function assistantRow() {
  return (await storedMessages(conversationId)).find((m) => m.role === 'assistant')!;
}

describe('timeouts: a hung model or embedder ends the turn in time', () => {
  it('recalls by words alone when the embedder hangs, and the turn record says the embedder timed out', async () => {
    await addFact(
      { userId: client.user.id, conversationId: null, source: null, actor: 'test' },
      {
        slot: 'family',
        content: 'My sister Ottilie lives in Porto',
        value: 'ottilie',
        indexTerms: indexTerms('My sister Ottilie lives in Porto'),
        embedding: fitToStoredSize([1]),
      },
    );
    stub.embeddingHang = true;

    const chunks = await reply(await send('Where does Ottilie live?'));
    expect(textOf(chunks)).toBe('She lives in Porto.');
    expect(await assistantRow()).toMatchObject({ status: 'complete', content: 'She lives in Porto.' });

    const record = lastRecord(chunks);
    expect(record.warnings.join('\n')).toMatch(/embedding the query timed out/);
    const fact = record.recalled.find((item: { kind: string }) => item.kind === 'fact');
    expect(fact).toMatchObject({ text: expect.stringContaining('Ottilie lives in Porto'), vectorRank: null, lexicalRank: 1, kept: true });
    expect(systemOf(stub.requests.filter(isChatCall).at(-1)!)).toContain('My sister Ottilie lives in Porto');
  });

  it.each([
    ['before its response headers', { hangBeforeHeaders: true }],
    ['after its response headers', { hangAfterChunks: 0 }],
  ])('fails the reply with an error the UI shows when the chat model hangs %s', async (_, hang) => {
    stub.respond = (body) => (isChatCall(body) ? { text: 'never sent', ...hang } : undefined);
    const started = performance.now();
    const chunks = await reply(await send('Hello?'));
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + SLACK_MS);

    expect(textOf(chunks)).toBe('');
    expect(chunks.filter((c) => c.type === 'error').map((c) => c.errorText)).toEqual(['The model did not start answering within 300 ms.']);
    expect(chunks.some((c) => c.type === 'abort')).toBe(false);
    expect(lastRecord(chunks).status).toBe('failed');
    const row = await assistantRow();
    expect(row).toMatchObject({ status: 'failed', content: '' });
    expect(row.error).toMatch(/did not start answering/);
  });

  it('keeps the partial text and ends `incomplete` with an error when the chat model stops mid-reply', async () => {
    stub.respond = (body) => (isChatCall(body) ? { text: 'one two three four five', hangAfterChunks: 3 } : undefined);
    const chunks = await reply(await send('Count to five'));

    expect(textOf(chunks)).toBe('one two three ');
    expect(chunks.filter((c) => c.type === 'error').map((c) => c.errorText)).toEqual([
      'The model stopped answering: nothing came for 300 ms.',
    ]);
    expect(lastRecord(chunks).status).toBe('incomplete');
    const row = await assistantRow();
    expect(row).toMatchObject({ status: 'incomplete', content: 'one two three ' });
    expect(row.error).toMatch(/stopped answering/);
  });

  it('ends the reply `incomplete`, never `complete`, when the request was aborted before the reply started', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const asked = stub.requests.length;
    const response = await send('Hello?', aborted.signal);
    await reply(response);

    const row = await waitFor(async () => {
      const assistant = await assistantRow();
      return assistant.status !== 'streaming' && assistant;
    });
    expect(row.status).toBe('incomplete');
    // Nobody is listening: the model is never asked.
    expect(stub.requests.slice(asked).filter(isChatCall)).toEqual([]);
  });

  it('falls back to the offline rewrite when the memory model hangs, and fails its post-turn jobs instead of hanging them', async () => {
    await reply(await send('I watched Arrival last night.'));
    await postTurnSettled(client.user.id);
    stub.respond = (body) => (body.model === 'stub-memory' ? { text: '', hangBeforeHeaders: true } : undefined);

    const chunks = await reply(await send('When was it released?'));
    expect(textOf(chunks)).toBe('She lives in Porto.');
    const { retrieval, warnings } = lastRecord(chunks);
    expect(retrieval).toMatchObject({ rewritten: true, cached: false });
    expect(retrieval.reason).toContain('offline rules (the memory model timed out)');
    expect(warnings.join('\n')).toMatch(/the retrieval rewrite model timed out/);

    await postTurnSettled(client.user.id);
    const jobs = await getSql()`
      select j.kind, j.status, j.last_error from jobs j join messages m on m.id = j.message_id
      where j.user_id = ${client.user.id} and j.kind = 'extract_facts' order by m.created_at desc limit 1`;
    expect(jobs[0]).toMatchObject({ status: 'failed', last_error: expect.stringMatching(/the memory model did not answer within 300 ms/) });
  });
});
