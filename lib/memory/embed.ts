import { embedMany } from 'ai';
import { EMBEDDING_SIZE } from '@/db/schema';
import type { Models } from '@/lib/llm';

/**
 * Embeds texts with the configured embedder and fits each vector to the stored size: a longer vector
 * is truncated (Matryoshka-style, as text-embedding-3 and nomic allow) and every vector re-normalised.
 */
export async function embedTexts(models: Models, texts: string[]): Promise<number[][]> {
  if (texts.length === 0) return [];
  const { embeddings } = await embedMany({
    model: models.embedding,
    values: texts,
    ...(models.offline ? {} : { dimensions: models.embeddingDimensions }),
    maxRetries: 1,
  });
  return embeddings.map(fitToStoredSize);
}

export function fitToStoredSize(vector: number[]): number[] {
  const sized =
    vector.length >= EMBEDDING_SIZE ? vector.slice(0, EMBEDDING_SIZE) : [...vector, ...new Array(EMBEDDING_SIZE - vector.length).fill(0)];
  const norm = Math.hypot(...sized);
  return norm === 0 ? sized : sized.map((value) => value / norm);
}
