import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { completionChunk, readJson, wordHashEmbedding } from './stub-http';

/**
 * An OpenAI-compatible model on 127.0.0.1 with a fixed cost, so a load run measures memlens and not
 * a provider: every call waits `latencyMs` before its first token; a streamed reply then sends
 * `tokens` chunks at `tokensPerSecond`. Non-streamed calls (the memory model: rewrite, extraction,
 * summary) answer after `latencyMs`, structured ones with the smallest value their JSON schema
 * allows (no facts found), and /v1/embeddings after `embedLatencyMs`.
 *
 * The reply names the marker of the question it answers, so a reply stored under the wrong
 * question or user shows.
 */
export type StubModelOptions = {
  latencyMs: number;
  tokens: number;
  tokensPerSecond: number;
  embedLatencyMs: number;
  /** 0 = a free port. */
  port?: number;
};

export type StubModel = {
  baseURL: string;
  options: StubModelOptions;
  /** What a chat turn cannot beat: the first token after `latencyMs`, the last `tokens / tokensPerSecond` later. */
  floor: { firstTokenMs: number; completionMs: number };
  calls: { chat: number; memory: number; embeddings: number };
  close: () => Promise<void>;
};

/** The per-turn marker a load run puts in each question: run, user and turn. */
export const MARKER = /lb-[a-z0-9]+-u\d+-t\d+/gu;

const FILLER = 'here is a steady stub answer streamed one word at a time for the load run'.split(' ');

/** The reply the stub streams to a question holding `marker` (or none): exactly `tokens` words. */
export function stubReply(marker: string | undefined, tokens: number): string {
  const words = [`${marker ?? 'no-marker'}:`];
  for (let i = 0; words.length < tokens; i++) words.push(FILLER[i % FILLER.length]);
  return words.slice(0, Math.max(1, tokens)).join(' ');
}

export async function startStubModel(options: StubModelOptions): Promise<StubModel> {
  const calls = { chat: 0, memory: 0, embeddings: 0 };
  const server = http.createServer((req, res) => {
    void answer(req, res, options, calls).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    options,
    floor: {
      firstTokenMs: options.latencyMs,
      completionMs: options.latencyMs + Math.round((1000 * (options.tokens - 1)) / options.tokensPerSecond),
    },
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type ChatBody = {
  model: string;
  stream?: boolean;
  messages?: Array<{ role: string; content: unknown }>;
  response_format?: { type: string; json_schema?: { schema?: JsonSchema } };
};

async function answer(req: http.IncomingMessage, res: http.ServerResponse, options: StubModelOptions, calls: StubModel['calls']) {
  const body = await readJson(req);
  if (req.method === 'POST' && req.url === '/v1/embeddings') {
    calls.embeddings++;
    await sleep(options.embedLatencyMs);
    const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
    const dimensions = body.dimensions ?? 512;
    return sendJson(res, {
      object: 'list',
      model: body.model,
      data: input.map((text, index) => ({ object: 'embedding', index, embedding: wordHashEmbedding(String(text), dimensions) })),
      usage: { prompt_tokens: input.length, total_tokens: input.length },
    });
  }
  if (req.method === 'POST' && req.url === '/v1/chat/completions') {
    const chat = body as ChatBody;
    if (chat.stream) {
      calls.chat++;
      return streamReply(res, chat, options);
    }
    calls.memory++;
    await sleep(options.latencyMs);
    const schema = chat.response_format?.type === 'json_schema' ? chat.response_format.json_schema?.schema : undefined;
    const content = schema ? JSON.stringify(smallestValue(schema)) : 'stub memory answer';
    return sendJson(res, {
      id: `chatcmpl-m${calls.memory}`,
      object: 'chat.completion',
      created: 1,
      model: chat.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
}

/** Streams the reply on a fixed schedule (from the call's start, so timer drift does not add up). */
async function streamReply(res: http.ServerResponse, chat: ChatBody, options: StubModelOptions) {
  const started = performance.now();
  const words = stubReply(lastMarker(chat), options.tokens).split(' ');
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => completionChunk(id, chat.model, delta, finish);
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  await sleep(options.latencyMs);
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  send(chunk({ role: 'assistant', content: '' }));
  for (let i = 0; i < words.length; i++) {
    await sleep(started + options.latencyMs + (1000 * i) / options.tokensPerSecond - performance.now());
    if (res.destroyed) return;
    send(chunk({ content: i === 0 ? words[i] : ` ${words[i]}` }));
  }
  send(chunk({}, 'stop'));
  send({ ...chunk({}), choices: [], usage: { prompt_tokens: 10, completion_tokens: words.length, total_tokens: 10 + words.length } });
  res.end('data: [DONE]\n\n');
}

/** The marker of the last user message (the question; earlier ones are history). */
function lastMarker(chat: ChatBody): string | undefined {
  const question = [...(chat.messages ?? [])].reverse().find((m) => m.role === 'user');
  const text = typeof question?.content === 'string' ? question.content : JSON.stringify(question?.content ?? '');
  return text.match(MARKER)?.at(-1);
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  minItems?: number;
  items?: JsonSchema;
};

/** The smallest value a JSON schema accepts: empty arrays, first enum values, required keys only. */
function smallestValue(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf?.length) return smallestValue(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, smallestValue(schema.properties?.[key] ?? {})]));
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => smallestValue(schema.items ?? {}));
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function sendJson(res: http.ServerResponse, value: unknown) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

const sleep = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
