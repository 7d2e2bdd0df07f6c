import type http from 'node:http';

// Shared by the OpenAI-compatible stubs on 127.0.0.1: the load bench's (bench/lib/stub-model.ts) and
// the tests' (tests/support/openai-stub.ts).

/** Deterministic vectors: texts sharing words get similar vectors, so recall still has work to do. */
export function wordHashEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array(dimensions).fill(0);
  for (const word of text.toLowerCase().split(/\W+/u).filter(Boolean)) {
    let hash = 0;
    for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    vector[hash % dimensions] += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/** A request's JSON body ({} when empty). */
// biome-ignore lint/suspicious/noExplicitAny: the stub servers read OpenAI request bodies of several shapes, taken as sent
export async function readJson(req: http.IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

/** One chunk of a streamed Chat Completions answer. */
export function completionChunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null = null) {
  return { id, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] };
}
