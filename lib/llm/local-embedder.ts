import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { chineseBridgeWords, englishBridgeWords } from '@/lib/text/bilingual';
import { kindWords } from '@/lib/text/kinds';
import { contentFeatures, words } from '@/lib/text/text-features';

/** The weight of a feature the bilingual bridge adds: less than the text's own words. */
const BRIDGE_WEIGHT = 0.5;
/** The weight of what a text's nouns are kinds of (lib/text/kinds.ts): a hint of meaning, less than a word said. */
const KIND_WEIGHT = 0.35;

/**
 * Deterministic offline embedder: feature hashing of content words, CJK bigrams and character
 * trigrams into `dimensions` buckets with a hashed sign, then L2-normalised. No model download;
 * similar wording gives similar vectors in English and Chinese alike, the words of the other
 * language (lib/text/bilingual.ts) bring a Chinese text near an English one that says the same, and
 * what its nouns are kinds of (lib/text/kinds.ts) brings "the banjo" near "instruments".
 */
export function embedLocally(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature);
    const sign = hash & 0x80000000 ? -1 : 1;
    vector[hash % dimensions] += sign * weight;
  };
  for (const feature of contentFeatures(text)) add(`w:${feature}`, 1);
  // Each bridge word featured alone, as the text's own words are (a Chinese one by its characters and bigrams).
  const glosses = englishBridgeWords(text);
  for (const word of [...glosses, ...chineseBridgeWords(text)])
    for (const feature of contentFeatures(word)) add(`w:${feature}`, BRIDGE_WEIGHT);
  for (const kind of kindWords(text, glosses)) for (const feature of contentFeatures(kind)) add(`w:${feature}`, KIND_WEIGHT);
  for (const word of words(text)) {
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, 0.35);
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** Cosine of two unit vectors (every embedder here returns unit length): their dot product. */
export const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function createLocalEmbedder(dimensions: number): EmbeddingModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'memlens-local',
    modelId: `local-hash-${dimensions}`,
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    async doEmbed({ values }) {
      return { embeddings: values.map((value) => embedLocally(value, dimensions)), warnings: [] };
    },
  };
}
