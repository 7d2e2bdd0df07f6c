import { beforeEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { type Client, newClient, parseChunks, readChunks, readUntil, setEnv, storedMessages, textOf, waitFor } from '@/tests/support/app';
import { type OpenAIStub, serveOpenAIStub } from '@/tests/support/openai-stub';

// The chat route through @ai-sdk/openai against an OpenAI-compatible server on 127.0.0.1.
let stub: OpenAIStub;
let client: Client;
let conversationId: string;

serveOpenAIStub({ CHAT_MODEL: 'stub-chat' }, (started) => {
  stub = started;
});
beforeEach(async () => {
  client = await newClient();
  const created = await createConversation(client.request('/api/conversations', { method: 'POST' }));
  conversationId = (await created.json()).conversation.id;
  stub.reply = { text: 'Paris is the capital of France.' };
});

function send(text: string, id?: string, signal?: AbortSignal) {
  return chat(client.request('/api/chat', { body: { conversationId, message: { id, text } }, signal }));
}

describe('POST /api/chat against an OpenAI-compatible server', () => {
  it('stores the placeholder before the first token and streams under its id, then finalizes it', async () => {
    stub.reply = { text: 'Paris is the capital of France.', chunkDelayMs: 30 };
    const response = await send('What is the capital of France?', crypto.randomUUID());
    expect(response.status).toBe(200);
    // Never gzipped frame by frame on the way out (Next's compression honours no-transform).
    expect(response.headers.get('cache-control')).toContain('no-transform');

    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = await readUntil(reader, (text) => text.includes('"type":"start"'));
    const start = parseChunks(buffered).find((c) => c.type === 'start')!;
    // The question's id is the server's (the client's new id is not taken); the client learns it here.
    const userMessageId = start.messageMetadata.userMessageId;
    // The row exists, streaming, under the id the client sees first.
    const [row] = (await storedMessages(conversationId)).filter((m) => m.id === start.messageId);
    expect(row).toMatchObject({ role: 'assistant', status: 'streaming', reply_to: userMessageId });
    expect(start.messageMetadata).toMatchObject({ userMessageId, model: 'stub-chat', offline: false });

    for (let next = await reader.read(); !next.done; next = await reader.read()) buffered += next.value;
    const chunks = parseChunks(buffered);
    expect(textOf(chunks)).toBe('Paris is the capital of France.');
    const stored = await storedMessages(conversationId);
    expect(stored.map((m) => [m.id, m.role, m.status, m.content])).toEqual([
      [userMessageId, 'user', 'complete', 'What is the capital of France?'],
      [start.messageId, 'assistant', 'complete', 'Paris is the capital of France.'],
    ]);
  });

  it('sends the configured system prompt and the stored history, and never stores the system prompt', async () => {
    setEnv({ SYSTEM_PROMPT: 'You are a test assistant.' });
    try {
      await readChunks(await send('First question'));
      await readChunks(await send('Second question'));
      // The chat call, not a post-turn memory call that may have come after it (those hold no history).
      const last = stub.requests.filter((r) => r.messages.some((m) => m.role === 'assistant')).at(-1)!;
      expect(last.model).toBe('stub-chat');
      const [system, ...rest] = last.messages.map((m) => [
        m.role,
        typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join(''),
      ]);
      expect(system[0]).toBe('system');
      expect(system[1].startsWith('You are a test assistant.\n')).toBe(true);
      expect(rest).toEqual([
        ['user', 'First question'],
        ['assistant', 'Paris is the capital of France.'],
        ['user', 'Second question'],
      ]);
      expect((await storedMessages(conversationId)).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    } finally {
      setEnv({ SYSTEM_PROMPT: undefined });
    }
  });

  it('keeps the partial text and ends `failed` when the provider drops mid-stream; Retry answers again', async () => {
    stub.reply = { text: 'one two three four five six', failAfterChunks: 3 };
    const chunks = await readChunks(await send('Count for me'));
    expect(chunks.some((c) => c.type === 'error')).toBe(true);
    const [question, failed] = await storedMessages(conversationId);
    expect(failed).toMatchObject({ role: 'assistant', status: 'failed', content: 'one two three ' });
    expect(failed.error).toBeTruthy();
    expect(question).toMatchObject({ role: 'user', content: 'Count for me', status: 'complete' });

    stub.reply = { text: 'One, two, three.' };
    const retried = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, trigger: 'regenerate-message' } })));
    expect(textOf(retried)).toBe('One, two, three.');
    const after = await storedMessages(conversationId);
    expect(after.map((m) => [m.role, m.status, m.content])).toEqual([
      ['user', 'complete', 'Count for me'],
      ['assistant', 'complete', 'One, two, three.'],
    ]);
    expect(after[0].id).toBe(question.id);
  });

  it('ends `failed` with the provider error and keeps the question when the provider refuses the call', async () => {
    stub.reply = { text: '', errorStatus: 500 };
    const chunks = await readChunks(await send('Hello?'));
    expect(chunks.find((c) => c.type === 'error')?.errorText).toContain('stub failure 500');
    const stored = await storedMessages(conversationId);
    expect(stored.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'failed'],
    ]);
  });

  it('ends `incomplete` with the text so far when the client goes away', async () => {
    stub.reply = { text: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' '), chunkDelayMs: 20 };
    const controller = new AbortController();
    const response = await send('Tell me a long story', undefined, controller.signal);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    await readUntil(reader, (text) => textOf(parseChunks(text)).split(' ').length >= 5);
    await reader.cancel();
    controller.abort();

    const reply = await waitFor(async () => {
      const [, assistant] = await storedMessages(conversationId);
      return assistant?.status !== 'streaming' && assistant;
    });
    expect(reply.status).toBe('incomplete');
    expect(reply.content.startsWith('w0 w1 w2 w3')).toBe(true);
    expect(reply.content.split(' ').length).toBeLessThan(60);
    // The model call was cut short too: no more than a few words beyond what the client saw.
    await new Promise((r) => setTimeout(r, 200));
    const [, settled] = await storedMessages(conversationId);
    expect(settled.content).toBe(reply.content);
  });

  it('replaces an edited user message by id, discards what followed, and answers the new text', async () => {
    const first = await readChunks(await send('What is 2+2?'));
    const firstId = first.find((c) => c.type === 'start')!.messageMetadata.userMessageId as string;
    await readChunks(await send('And 3+3?'));
    expect(await storedMessages(conversationId)).toHaveLength(4);

    stub.reply = { text: 'Five.' };
    await readChunks(await send('What is 2+3?', firstId));
    const stored = await storedMessages(conversationId);
    expect(stored.map((m) => [m.id === firstId, m.role, m.content])).toEqual([
      [true, 'user', 'What is 2+3?'],
      [false, 'assistant', 'Five.'],
    ]);
    const sent = stub.requests.at(-1)!.messages.filter((m) => m.role !== 'system');
    expect(sent).toHaveLength(1);
  });
});
