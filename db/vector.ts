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
 * Settings every session holds, given as startup parameters (db/client.ts); PGlite, which ignores
 * those and has a single session, gets them once when it starts (db/embedded.ts).
 * - pgvector: a filtered HNSW scan keeps walking the graph until enough rows pass the filter
 *   (iterative_scan), so a user's search is never cut short by other users' vectors, and a search
 *   needs no SET (and no transaction) of its own. Only HNSW index scans read it.
 * - Statements are prepared once per connection (db/client.ts) and still planned for their
 *   parameters on every run, as unnamed ones are: a generic plan would guess one user's share of
 *   the rows for every user.
 */
export const SESSION_SETTINGS = { 'hnsw.iterative_scan': 'relaxed_order', plan_cache_mode: 'force_custom_plan' } as const;
