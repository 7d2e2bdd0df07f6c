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

/**
 * pgvector settings every session holds, so a search needs no SET (and no transaction) of its own.
 * A filtered HNSW scan keeps walking the graph until enough rows pass the filter (iterative_scan),
 * so a user's search is never cut short by other users' vectors. Harmless elsewhere: only HNSW
 * index scans read them. Postgres takes them as startup parameters (db/client.ts); PGlite, which
 * ignores those and has a single session, gets them once when it starts (db/embedded.ts).
 */
export const VECTOR_SESSION_SETTINGS = { 'hnsw.iterative_scan': 'relaxed_order' } as const;
