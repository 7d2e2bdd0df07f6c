import { embedMany } from 'ai';
import { EMBEDDING_SIZE } from '@/db/schema';
import type { Models } from '@/lib/llm';
import { URGENT_EMBEDDING } from '@/lib/llm/sentence-encoder';

/**
 * Embeds texts with the configured embedder and fits each vector to the stored size: a longer vector
 * is truncated (Matryoshka-style, as text-embedding-3 and nomic allow) and every vector re-normalised.
 * `urgent`: a user is waiting for it; a local embedder serves it before background work.
 */
export async function embedTexts(models: Models, texts: string[], { urgent = false } = {}): Promise<number[][]> {
  if (texts.length === 0) return [];
  const { embeddings } = await embedMany({
    model: models.embedding,
    values: texts,
    ...(models.offline ? {} : { dimensions: models.embeddingDimensions }),
    maxRetries: 1,
    ...(urgent ? { providerOptions: URGENT_EMBEDDING } : {}),
  });
  return embeddings.map(fitToStoredSize);
}

export function fitToStoredSize(vector: number[]): number[] {
  const sized =
    vector.length >= EMBEDDING_SIZE ? vector.slice(0, EMBEDDING_SIZE) : [...vector, ...new Array(EMBEDDING_SIZE - vector.length).fill(0)];
  const norm = Math.hypot(...sized);
  return norm === 0 ? sized : sized.map((value) => value / norm);
}
