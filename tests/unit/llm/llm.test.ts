import { streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { getModels } from '@/lib/llm';
import { createLocalEmbedder, embedLocally } from '@/lib/llm/local-embedder';
import { createOfflineModel } from '@/lib/llm/offline-model';
import { memoryLine, SECTION_HEADERS } from '@/lib/memory/memory-line';

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

describe('local embedder', () => {
  it('is deterministic, L2-normalised and of the configured size', () => {
    const vector = embedLocally('I live in Berlin', 512);
    expect(vector).toHaveLength(512);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
    expect(embedLocally('I live in Berlin', 512)).toEqual(vector);
  });

  it.each([
    ['en', 'Who directed Interstellar?', 'Christopher Nolan directed Interstellar in 2014.', 'Keep basil in a glass of water.'],
    ['zh', '星际穿越是谁导演的？', '星际穿越的导演是诺兰。', '绿茶用八十度的水泡。'],
    ['mixed', 'my cat Luna', '我的猫叫 Luna', 'the weather is sunny'],
  ])('puts related text closer than unrelated text (%s)', (_, query, related, unrelated) => {
    const q = embedLocally(query, 512);
    expect(cosine(q, embedLocally(related, 512))).toBeGreaterThan(cosine(q, embedLocally(unrelated, 512)) + 0.05);
  });
});

describe('offline embedder setting', () => {
  const names = ['OFFLINE_EMBEDDER', 'OPENAI_API_KEY', 'EMBEDDING_MODEL'] as const;
  const outside = names.map((name) => process.env[name]);
  afterEach(() => {
    for (const [i, name] of names.entries()) {
      if (outside[i] === undefined) delete process.env[name];
      else process.env[name] = outside[i];
    }
    resetConfigForTests();
  });

  it.each([
    [undefined, 'local-hash-512'],
    ['sentence-encoder', 'use-lite+hash'],
    ['hashing', 'local-hash-512'],
  ])('OFFLINE_EMBEDDER=%s embeds with %s', (setting, modelId) => {
    if (setting) process.env.OFFLINE_EMBEDDER = setting;
    else delete process.env.OFFLINE_EMBEDDER;
    resetConfigForTests();
    expect(getModels().embedding.modelId).toBe(modelId);
  });

  it.each([
    ['sentence-encoder', 'use-lite+hash'],
    ['hashing', 'local-hash-512'],
  ])('with a model endpoint that names no embedding model, embeds here with OFFLINE_EMBEDDER=%s', (setting, modelId) => {
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-test', EMBEDDING_MODEL: '', OFFLINE_EMBEDDER: setting });
    resetConfigForTests();
    const models = getModels();
    expect(models.offline).toBe(false);
    expect(models.embedding.modelId).toBe(modelId);
    process.env.EMBEDDING_MODEL = 'text-embedding-3-small';
    resetConfigForTests();
    expect(getModels().embedding.modelId).toBe('text-embedding-3-small');
  });
});

describe('offline model', () => {
  it('streams word by word through the AI SDK and stops when aborted', async () => {
    const model = createOfflineModel({ chunkDelayMs: 5, embedding: createLocalEmbedder(256) });
    const plan = 'This weekend I am walking the coast path from Porto to Viana with two friends';
    const system = `You are helpful.\n${SECTION_HEADERS.facts}${memoryLine(1, `${plan} (plan, current since 2026-11-20)`)}`;
    const result = streamText({ model, instructions: system, messages: [{ role: 'user', content: 'What am I doing this weekend?' }] });
    const deltas: string[] = [];
    const reader = result.stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (next.value.type === 'text-delta') deltas.push(next.value.text);
    }
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.join('')).toBe(`You told me: "${plan}" (since 2026-11-20) [1].`);
    expect((await result.usage).outputTokens).toBeGreaterThan(10);

    const controller = new AbortController();
    const aborted = streamText({
      model,
      instructions: system,
      messages: [{ role: 'user', content: 'What am I doing this weekend?' }],
      abortSignal: controller.signal,
    });
    let seen = 0;
    const abortedReader = aborted.stream.getReader();
    for (let next = await abortedReader.read(); !next.done; next = await abortedReader.read()) {
      if (next.value.type === 'text-delta' && ++seen === 3) controller.abort();
    }
    expect(seen).toBeLessThan(deltas.length);
  });
});
