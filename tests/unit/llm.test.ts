import { streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { getModels } from '@/lib/llm';
import { embedLocally } from '@/lib/llm/local-embedder';
import { answerFromContext, createOfflineModel, mostRelevantLine } from '@/lib/llm/offline-model';
import { memoryLine } from '@/lib/memory/memory-line';

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
  const prompt = (system: string, ...turns: Array<[string, string]>) => [
    { role: 'system' as const, content: system },
    ...turns.map(([role, text]) => ({ role: role as 'user' | 'assistant', content: [{ type: 'text' as const, text }] })),
  ];

  it('answers from the most relevant line of its context, with no disclaimer and no word about keys', () => {
    const reply = answerFromContext(
      prompt(`You are helpful.\n${memoryLine(1, 'The user is allergic to peanuts.')}${memoryLine(2, 'The user lives in Lisbon.')}`, [
        'user',
        'Where do I live?',
      ]),
    );
    expect(reply).toContain('The user lives in Lisbon.');
    expect(reply).not.toMatch(/offline|API key|OPENAI/iu);
    expect(reply).not.toContain('peanuts');
  });

  it('prefers a numbered memory line to an equally relevant message, so the reply cites it', () => {
    const reply = answerFromContext(
      prompt(
        `You are helpful.\n${memoryLine(1, 'I live in Lisbon (location, since 2026-11-22)')}`,
        ['user', 'My favourite colour is teal and I live in Lisbon.'],
        ['assistant', 'Noted.'],
        ['user', 'Where do I live?'],
      ),
    );
    expect(reply).toContain('[1] I live in Lisbon');
  });

  it('uses earlier messages too, in Chinese', () => {
    const reply = answerFromContext(prompt('你是助手。', ['user', '我叫张三'], ['assistant', '你好张三！'], ['user', '我叫什么？']));
    expect(reply).toContain('张三');
  });

  it('says plainly when nothing in the context answers', () => {
    expect(answerFromContext(prompt('You are helpful.', ['user', 'What is the airspeed of a swallow?']))).toContain(
      "I don't know yet: nothing you have told me answers",
    );
  });

  it.each([
    ['My name is Ada and I live in Lisbon.', 'Noted: "My name is Ada and I live in Lisbon."'],
    ['我叫张三', 'Noted: "我叫张三"'],
    ['Recommend a board game.', "I don't know yet"],
    ['我叫什么？', "I don't know yet"],
  ])('acknowledges a statement and admits an unanswerable question: %s', (text, expected) => {
    const reply = answerFromContext(prompt('You are helpful.', ['user', text]));
    expect(reply).toContain(expected);
    expect(reply).not.toMatch(/offline|API key|OPENAI/iu);
  });

  it('picks nothing when no candidate shares a word with the question', () => {
    expect(mostRelevantLine('quantum chromodynamics', ['I like tea', 'Berlin is big'])).toBeUndefined();
  });

  it('streams word by word through the AI SDK and stops when aborted', async () => {
    const model = createOfflineModel({ chunkDelayMs: 5 });
    const plan = 'This weekend I am walking the coast path from Porto to Viana with two friends.';
    const result = streamText({ model, messages: [{ role: 'user', content: plan }] });
    const deltas: string[] = [];
    const reader = result.stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (next.value.type === 'text-delta') deltas.push(next.value.text);
    }
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.join('')).toBe(`Noted: "${plan}". Ask me about it later.`);
    expect((await result.usage).outputTokens).toBeGreaterThan(10);

    const controller = new AbortController();
    const aborted = streamText({ model, messages: [{ role: 'user', content: 'Hello' }], abortSignal: controller.signal });
    let seen = 0;
    const abortedReader = aborted.stream.getReader();
    for (let next = await abortedReader.read(); !next.done; next = await abortedReader.read()) {
      if (next.value.type === 'text-delta' && ++seen === 3) controller.abort();
    }
    expect(seen).toBeLessThan(deltas.length);
  });
});
