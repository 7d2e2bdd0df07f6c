import { sql, type SQL } from 'drizzle-orm';
import { getDb } from './client';
import { RRF_K, toVectorLiteral, type RankedCandidate } from './vector';

export type HybridSearch = {
  table: 'episodes' | 'facts';
  /** A filter over rows aliased `e`; it must include the user id. */
  scope: SQL;
  embedding: number[];
  /** Content words of the query, each matched as a substring (works for CJK, which has no spaces). */
  keywords: string[];
  k: number;
  /** Rows found only by the vector search must be at least this similar (cosine); keyword matches always count. */
  minSimilarity: number;
};

/**
 * Hybrid recall over one memory table: rows ranked by cosine distance (HNSW) and by the keywords
 * they contain, fused by reciprocal rank fusion. Returns the rows (snake_case columns) with their ranks.
 */
export async function hybridSearch(search: HybridSearch): Promise<Array<RankedCandidate & { row: Record<string, unknown> }>> {
  const table = sql.raw(search.table);
  const pool = Math.max(search.k * 4, 20);
  const query = sql`
      with vec as (${vectorRanking(table, search.scope, search.embedding, pool)}),
      lex as (${lexicalRanking(table, search.scope, search.keywords, pool)})
      select e.*, vec.rank as vector_rank, vec.score as vector_score, lex.rank as lexical_rank, lex.score as lexical_score,
             coalesce(1.0 / (${RRF_K} + vec.rank), 0) + coalesce(1.0 / (${RRF_K} + lex.rank), 0) as rrf
      from (select id from vec union select id from lex) candidate
      join ${table} e on e.id = candidate.id
      left join vec on vec.id = candidate.id
      left join lex on lex.id = candidate.id
      where lex.id is not null or (vec.id is not null and vec.score >= ${search.minSimilarity})
      order by rrf desc, e.created_at desc
      limit ${search.k}`;
  const rows = await getDb().transaction(async (tx) => {
    // Filtered HNSW scans keep searching until enough rows pass the filter (iterative_scan). And
    // pgvector's cost model often prefers a sequential scan and sort once a table is analysed; at
    // scale the HNSW and trigram indexes are what keeps recall fast, so steer the planner to them.
    // Both for this transaction only, in one round trip.
    await tx.execute(sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('enable_seqscan', 'off', true)`);
    return tx.execute<Record<string, unknown>>(query);
  });
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return rows.map((row) => ({
    id: row.id as string,
    vectorRank: num(row.vector_rank),
    vectorScore: num(row.vector_score),
    lexicalRank: num(row.lexical_rank),
    lexicalScore: num(row.lexical_score),
    score: Number(row.rrf),
    row,
  }));
}

/** Nearest by cosine distance through the HNSW index; nothing when there is no query vector (embedder down). */
function vectorRanking(table: SQL, scope: SQL, embedding: number[], limit: number): SQL {
  if (embedding.length === 0) return sql`select null::uuid as id, 0::bigint as rank, 0::float8 as score where false`;
  const vector = toVectorLiteral(embedding);
  return sql`
    select e.id, row_number() over (order by e.embedding <=> ${vector}::vector) as rank,
           1 - (e.embedding <=> ${vector}::vector) as score
    from ${table} e where ${scope} and e.embedding is not null
    order by e.embedding <=> ${vector}::vector limit ${limit}`;
}

/**
 * Rank rows by the query words they contain, each weighted by how rare it is among the matching rows
 * (an IDF over the candidates), so a rare name outweighs a common word. Substring matching works for
 * CJK, which has no spaces; the OR of ILIKEs lets Postgres use the trigram GIN index (a bitmap OR).
 */
function lexicalRanking(table: SQL, scope: SQL, keywords: string[], limit: number): SQL {
  const terms = [...new Set(keywords.filter((k) => k.length >= 2))].slice(0, 16);
  if (terms.length === 0) return sql`select null::uuid as id, 0::bigint as rank, 0::float8 as score where false`;
  const patterns = terms.map((t) => `%${t.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`);
  const anyPattern = sql.join(
    patterns.map((p) => sql`e.content ilike ${p}`),
    sql` or `,
  );
  // One pass over the matching rows (materialised): their term hits give the document frequencies.
  return sql`
    with hits as materialized (
      select e.id, e.created_at, t.term
      from ${table} e
      cross join unnest(${sql.param(terms)}::text[], ${sql.param(patterns)}::text[]) as t(term, pattern)
      where ${scope} and (${anyPattern}) and e.content ilike t.pattern
    ),
    df as (select term, count(*) as rows from hits group by term),
    matched as (select count(distinct id) as rows from hits)
    select h.id,
           row_number() over (order by sum(ln((matched.rows + 1.0) / df.rows) * length(h.term)) desc, h.created_at desc) as rank,
           sum(ln((matched.rows + 1.0) / df.rows) * length(h.term))::float8 as score
    from hits h join df on df.term = h.term cross join matched
    group by h.id, h.created_at
    order by rank limit ${limit}`;
}
