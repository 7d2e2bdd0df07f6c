import { embedMany } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embedLocally } from '@/lib/llm/local-embedder';

// The real package, with its loader counted: the model must load once however many callers race for it.
vi.mock('@energetic-ai/embeddings', async (importOriginal) => {
  const real = await importOriginal<typeof import('@energetic-ai/embeddings')>();
  return { ...real, initModel: vi.fn(real.initModel) };
});

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

async function embedAll(values: string[]): Promise<number[][]> {
  const { createSentenceEncoder } = await import('@/lib/llm/sentence-encoder');
  return (await embedMany({ model: createSentenceEncoder(), values })).embeddings;
}

/** Index of the memory closest to the question. */
async function closest(question: string, memories: string[]): Promise<string> {
  const [q, ...vectors] = await embedAll([question, ...memories]);
  const scores = vectors.map((v) => cosine(q, v));
  return memories[scores.indexOf(Math.max(...scores))];
}

describe('sentence encoder', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('loads from the installed package without the network, once however many first calls race', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new Error('no network in this test')));
    vi.resetModules(); // a fresh, unloaded encoder and a fresh count
    const { initModel } = await import('@energetic-ai/embeddings');
    const { loadSentenceModel } = await import('@/lib/llm/sentence-encoder');
    const [first, second, [one], [two]] = await Promise.all([
      loadSentenceModel(),
      loadSentenceModel(),
      embedAll(['one']),
      embedAll(['two']),
    ]);
    expect(first).toBe(second);
    expect(cosine(one, two)).toBeLessThan(0.999);
    await loadSentenceModel();
    expect(vi.mocked(initModel)).toHaveBeenCalledTimes(1);
  });

  it('gives 512-dimension unit vectors, and a batch equals the same values one at a time', async () => {
    const values = ['I moved to Porto last year.', 'Grandma bakes rye bread on Sundays.', '我每天骑车上班。'];
    const batch = await embedAll(values);
    for (const vector of batch) {
      expect(vector).toHaveLength(512);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
    const { blend, loadSentenceModel } = await import('@/lib/llm/sentence-encoder');
    const model = await loadSentenceModel();
    for (const [i, value] of values.entries()) {
      const [single] = await model.embed([value]);
      for (const [j, x] of blend(value, single).entries()) expect(x).toBeCloseTo(batch[i][j], 5);
    }
  });

  it('runs the model once for a text asked for again', async () => {
    const { loadSentenceModel } = await import('@/lib/llm/sentence-encoder');
    const embed = vi.spyOn(await loadSentenceModel(), 'embed');
    const [first] = await embedAll(['The plumber comes on Friday.']);
    const [again] = await embedAll(['The plumber comes on Friday.']);
    expect(again).toEqual(first);
    expect(embed).toHaveBeenCalledTimes(1);
    embed.mockRestore();
  });

  // Questions that share no content word with the memory they ask about: hashing cannot link them.
  const memories = [
    'Everyone at the office calls me Tommy.',
    'I had a sandwich for lunch.',
    'My car broke down on the highway.',
    'I adopted a tabby kitten last spring.',
    'We spent our anniversary week in Lisbon.',
    'I stopped eating meat in January.',
    'My brother is an accountant.',
  ];
  it.each([
    ["What's my name?", memories[0]],
    ['Do I have any animals at home?', memories[3]],
    ['Where did we go on holiday?', memories[4]],
    ['Any food restrictions I should know about?', memories[5]],
    ['What does my sibling do for a living?', memories[6]],
  ])('ranks the paraphrased memory first for %s', async (question, expected) => {
    expect(await closest(question, memories)).toBe(expected);
  });

  it('ranks a paraphrase above an unrelated sentence, where hashing does not', async () => {
    const [question, paraphrase, unrelated] = [
      'What pet do I own?',
      'A golden retriever sleeps at the foot of my bed.',
      'The meeting moved to Thursday.',
    ];
    const [q, p, u] = await embedAll([question, paraphrase, unrelated]);
    expect(cosine(q, p)).toBeGreaterThan(cosine(q, u) + 0.05);
    const hashed = [question, paraphrase, unrelated].map((text) => embedLocally(text, 512));
    expect(cosine(hashed[0], hashed[1])).toBeLessThan(cosine(hashed[0], hashed[2]) + 0.05);
  });

  // The English model reads no Chinese: Chinese text keeps the hashing features that match its characters.
  it.each([
    ['我的猫叫什么？', '我家的猫叫豆豆。', '明天早上要开会。'],
    ['我住在哪个城市？', '我住在成都，离公司很近。', '这本小说很好看。'],
  ])('still matches Chinese by its characters (%s)', async (question, related, unrelated) => {
    expect(await closest(question, [unrelated, related])).toBe(related);
  });
});
