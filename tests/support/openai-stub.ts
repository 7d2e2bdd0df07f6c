import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { completionChunk, readJson, wordHashEmbedding } from '../../bench/lib/stub-http';
import { setEnv } from './app';

/**
 * A small OpenAI-compatible server on 127.0.0.1 so tests exercise the real @ai-sdk/openai path:
 * /v1/chat/completions (SSE streaming or not) and /v1/embeddings.
 */
export type StubReply = {
  /** Words streamed one chunk each. */
  text: string;
  /** Stream this many chunks, then drop the connection (a provider failing mid-stream). */
  failAfterChunks?: number;
  /** Answer with this HTTP error status instead of a stream. */
  errorStatus?: number;
  /** Delay between chunks. */
  chunkDelayMs?: number;
  /** Stream this many chunks, then send nothing more (a model that hangs; 0 = before its first token). A non-streamed answer never comes. */
  hangAfterChunks?: number;
  /** Never answer, not even the headers (a server stuck before it takes the call). */
  hangBeforeHeaders?: boolean;
};

export type ChatCompletionRequest = {
  model: string;
  response_format?: { type: string };
  stream?: boolean;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
};

export type OpenAIStub = {
  baseURL: string;
  requests: ChatCompletionRequest[];
  embeddingRequests: Array<{ model: string; input: string[]; dimensions?: number }>;
  reply: StubReply;
  /** Per-request answer (e.g. JSON for structured-output calls); undefined falls back to `reply`. */
  respond?: (request: ChatCompletionRequest) => StubReply | undefined | Promise<StubReply | undefined>;
  /** Answer /v1/embeddings with this HTTP status instead. */
  embeddingErrorStatus?: number;
  /** Never answer /v1/embeddings (an embedder that hangs). */
  embeddingHang?: boolean;
  close: () => Promise<void>;
};

async function startOpenAIStub(initial: StubReply = { text: 'Hello from the stub model.' }): Promise<OpenAIStub> {
  const stub = { requests: [], embeddingRequests: [], reply: initial } as unknown as OpenAIStub;
  const server = http.createServer(async (req, res) => {
    const body = await readJson(req);
    if (req.method === 'POST' && req.url === '/v1/embeddings') {
      stub.embeddingRequests.push(body);
      if (stub.embeddingHang) return untilClientLeaves(res);
      if (stub.embeddingErrorStatus) {
        res.writeHead(stub.embeddingErrorStatus, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `stub embedding failure ${stub.embeddingErrorStatus}`, type: 'server_error' } }));
        return;
      }
      const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const dimensions = body.dimensions ?? 8;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: wordHashEmbedding(text, dimensions) })),
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        }),
      );
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      stub.requests.push(body);
      const reply = (await stub.respond?.(body)) ?? stub.reply;
      if (reply.hangBeforeHeaders || (!body.stream && reply.hangAfterChunks !== undefined)) return untilClientLeaves(res);
      if (reply.errorStatus) {
        res.writeHead(reply.errorStatus, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `stub failure ${reply.errorStatus}`, type: 'server_error' } }));
        return;
      }
      const words = reply.text.match(/\S+\s*/gu) ?? [];
      const id = `chatcmpl-${stub.requests.length}`;
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created: 1,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: words.length, total_tokens: 10 + words.length },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) => completionChunk(id, body.model, delta, finish);
      send(chunk({ role: 'assistant', content: '' }));
      for (let i = 0; i < words.length; i++) {
        if (i === reply.hangAfterChunks) return untilClientLeaves(res);
        if (reply.failAfterChunks !== undefined && i === reply.failAfterChunks) {
          // Let what was written reach the client, then drop the connection.
          await new Promise((r) => setTimeout(r, 50));
          res.destroy();
          return;
        }
        if (reply.chunkDelayMs) await new Promise((r) => setTimeout(r, reply.chunkDelayMs));
        if (res.destroyed) return;
        send(chunk({ content: words[i] }));
      }
      send(chunk({}, 'stop'));
      send({ ...chunk({}), choices: [], usage: { prompt_tokens: 10, completion_tokens: words.length, total_tokens: 10 + words.length } });
      res.end('data: [DONE]\n\n');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  stub.baseURL = `http://127.0.0.1:${port}/v1`;
  stub.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}

/** A hung answer: nothing more is sent; it ends when the client gives up (or the stub closes). */
function untilClientLeaves(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => res.once('close', resolve));
}

/**
 * For a test file or a describe block: the stub as the app's OpenAI-compatible endpoint from
 * beforeAll to afterAll, with the models and any other settings `env` names; `started` receives the
 * running stub. Everything set here is unset afterwards.
 */
export function serveOpenAIStub(env: Record<string, string>, started: (stub: OpenAIStub) => void): void {
  let stub: OpenAIStub;
  beforeAll(async () => {
    stub = await startOpenAIStub();
    started(stub);
    setEnv({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: stub.baseURL, ...env });
  });
  afterAll(async () => {
    setEnv(Object.fromEntries(['OPENAI_API_KEY', 'OPENAI_BASE_URL', ...Object.keys(env)].map((key) => [key, undefined])));
    await stub.close();
  });
}
