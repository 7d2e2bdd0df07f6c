import { beforeEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { getSql } from '@/db/client';
import { runDueJobs } from '@/lib/memory/jobs/queue';
import { type Client, newClient, params, readChunks, storedMessages } from '@/tests/support/app';
import { activeFacts, postTurnSettled } from '@/tests/support/memory';
import { type OpenAIStub, serveOpenAIStub } from '@/tests/support/openai-stub';

// The memory pipeline with an OpenAI-compatible model: LLM rewrite, JSON-schema extraction, embeddings.
let stub: OpenAIStub;
let client: Client;
let conversationId: string;

const isStructured = (body: { response_format?: { type: string } }) => body.response_format?.type === 'json_schema';
const systemOf = (body: { messages: Array<{ role: string; content: unknown }> }) =>
  String(body.messages.find((m) => m.role === 'system')?.content ?? '');

serveOpenAIStub({ CHAT_MODEL: 'stub-chat', MEMORY_MODEL: 'stub-memory' }, (started) => {
  stub = started;
});
beforeEach(async () => {
  client = await newClient();
  conversationId = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
  stub.embeddingErrorStatus = undefined;
  stub.reply = { text: 'Sure.' };
  stub.respond = (body) => {
    if (isStructured(body) && systemOf(body).includes('Extract durable facts')) {
      const said = JSON.stringify(body.messages);
      const facts = said.includes('Porto')
        ? [{ slot: 'location', text: 'I live in Porto', value: 'porto', negated: false, validFrom: null }]
        : [];
      return { text: JSON.stringify({ facts }) };
    }
    if (isStructured(body)) return { text: JSON.stringify({ decisions: [{ event: 'ADD', factId: null }] }) };
    if (systemOf(body).includes('standalone search query')) return { text: 'Which year was the film Arrival released?' };
    if (systemOf(body).includes('running summary')) return { text: '- summary' };
    return undefined;
  };
});

const send = async (text: string) => readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));

describe('memory through an OpenAI-compatible server', () => {
  it('extracts facts with a JSON schema, embeds through /v1/embeddings, and recalls them', async () => {
    await send('I live in Porto these days.');
    await postTurnSettled(client.user.id);
    expect(await activeFacts(client.user.id)).toEqual(['I live in Porto']);
    expect(stub.embeddingRequests.at(-1)).toMatchObject({ model: 'text-embedding-3-small', dimensions: 512 });
    const [event] = await getSql()`select actor from fact_events where user_id = ${client.user.id}`;
    expect(event.actor).toBe('model:stub-memory');

    await send('Where do I live?');
    const request = stub.requests.filter((r) => !isStructured(r) && r.model === 'stub-chat').at(-1)!;
    expect(systemOf(request)).toContain('I live in Porto');
  });

  it('records exactly the messages array the model received, and the LLM rewrite with its reason, cached for a retry', async () => {
    await send('I watched Arrival last night.');
    await postTurnSettled(client.user.id);
    stub.reply = { text: 'It came out in 2016 [1].' };
    const chunks = await send('When was it released?');
    const assistantId = chunks.find((c) => c.type === 'start')!.messageId;
    const sent = stub.requests.filter((r) => r.model === 'stub-chat').at(-1)!;

    const { context } = await (
      await getContext(client.request(`/api/messages/${assistantId}/context`), params({ id: assistantId }))
    ).json();
    expect(context.messages).toEqual(
      sent.messages.map((m) => ({
        role: m.role,
        content: typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join(''),
      })),
    );
    expect(context.retrieval).toMatchObject({ query: 'Which year was the film Arrival released?', rewritten: true, cached: false });
    expect(context.retrieval.reason).toContain('rewritten by');
    expect(context.usage.outputTokens).toBeGreaterThan(0);
    // The stored question is the user's words, not the rewrite.
    expect((await storedMessages(conversationId)).at(-2)!.content).toBe('When was it released?');

    // Retry answers the same question after the same history: the rewrite comes from the cache.
    const rewritesBefore = stub.requests.filter((r) => systemOf(r).includes('standalone search query')).length;
    const retried = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, trigger: 'regenerate-message' } })));
    const retriedId = retried.find((c) => c.type === 'start')!.messageId;
    const again = (await (await getContext(client.request(`/api/messages/${retriedId}/context`), params({ id: retriedId }))).json())
      .context;
    expect(again.retrieval).toMatchObject({ query: 'Which year was the film Arrival released?', cached: true });
    expect(stub.requests.filter((r) => systemOf(r).includes('standalone search query')).length).toBe(rewritesBefore);
  });

  it('a failing embedder degrades recall to words, fails the post-turn jobs visibly, never the reply or the question, and a retry completes them', async () => {
    stub.embeddingErrorStatus = 500;
    stub.reply = { text: 'Noted, Porto.' };
    const chunks = await send('I live in Porto.');
    expect(chunks.some((c) => c.type === 'error')).toBe(false);
    const turn = chunks.find((c) => c.type === 'data-turn')!.data;
    expect(turn.warnings).toEqual([expect.stringContaining('recall used words only')]);
    await postTurnSettled(client.user.id);
    const failed = await getSql()`select kind, status, attempts, last_error from jobs where user_id = ${client.user.id} order by kind`;
    expect(
      failed
        .filter((j) => j.status === 'failed')
        .map((j) => j.kind)
        .sort(),
    ).toEqual(['extract_facts', 'index_episode']);
    expect(failed.find((j) => j.kind === 'index_episode')!.last_error).toContain('stub embedding failure 500');
    expect((await storedMessages(conversationId)).map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);

    stub.embeddingErrorStatus = undefined;
    await getSql()`update jobs set run_after = now() where user_id = ${client.user.id}`;
    expect(await runDueJobs({ userId: client.user.id })).toEqual({ done: 2, failed: 0 });
    const after = await getSql()`select status, attempts from jobs where user_id = ${client.user.id} and kind = 'index_episode'`;
    const attemptsWhenFailed = failed.find((j) => j.kind === 'index_episode')!.attempts;
    expect(after[0]).toMatchObject({ status: 'done', attempts: attemptsWhenFailed + 1 });
    expect(await activeFacts(client.user.id)).toEqual(['I live in Porto']);
    expect(await getSql()`select 1 from episodes where user_id = ${client.user.id}`).toHaveLength(1);
  });
});
