import { RRF_K } from '@/db/vector';

/**
 * Reciprocal rank fusion of several ranked lists of the same kind of hit: each hit scores the sum
 * of 1 / (RRF_K + its rank) over the lists it is in, weighted by its list's weight. A hit keeps the
 * details of the first list it appears in, and its fused score.
 */
export function fuseRankings<T extends { id: string; score: number }>(lists: Array<{ hits: T[]; weight: number }>): T[] {
  const fused = new Map<string, { hit: T; score: number }>();
  for (const { hits, weight } of lists) {
    for (const [index, hit] of hits.entries()) {
      const entry = fused.get(hit.id) ?? { hit, score: 0 };
      entry.score += weight / (RRF_K + index + 1);
      fused.set(hit.id, entry);
    }
  }
  return [...fused.values()].sort((a, b) => b.score - a.score).map(({ hit, score }) => ({ ...hit, score }));
}
