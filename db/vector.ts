/** pgvector's text form, for parameters: [0.1,0.2,…]. */
export function toVectorLiteral(vector: number[]): string {
  return `[${vector.join(',')}]`;
}

/** Reciprocal rank fusion constant (Cormack et al.): dampens the weight of top ranks. */
export const RRF_K = 60;

export type RankedCandidate = {
  id: string;
  vectorRank: number | null;
  vectorScore: number | null;
  lexicalRank: number | null;
  lexicalScore: number | null;
  score: number;
};
