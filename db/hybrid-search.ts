import { sql, type SQL } from 'drizzle-orm';
import { getDb } from './client';
import { RRF_K, toVectorLiteral, type RankedCandidate } from './vector';

export type HybridSearch = {
  table: 'episodes' | 'facts';
  userId: string;
  /** A filter over rows aliased `e`; it must include the user id. */
  scope: SQL;
  embedding: number[];
  /** Query terms in the lexical index's normal form (lib/memory/keywords.ts, db/search-terms.ts). */
  keywords: string[];
  k: number;
  /** Rows found only by the vector search must be at least this similar (cosine); keyword matches always count. */
  minSimilarity: number;
};

/**
 * A user with at most this many rows is searched exactly (every row's distance, through the user
 * index) rather than through the HNSW graph, which is shared by all users: a filtered graph walk
 * for a small user would wade through other users' vectors before it found enough of theirs.
 */
export const EXACT_SEARCH_MAX_ROWS = 2000;
/**
 * Rows read per query term. A term in more of the user's rows than this says little about which
 * row is meant (its weight is near zero); reading them all would make a common word cost as much
 * as the user has memories.
 */
const ROWS_PER_TERM = 1000;

/**
 * Hybrid recall over one memory table: rows ranked by cosine distance and by the index terms they
 * share with the query, fused by reciprocal rank fusion. The lexical half, and the vector half of a
 * user with few rows, read only that user's rows; a large user's vector half walks the HNSW graph
 * shared by all users (filtered, iteratively). Returns the rows (snake_case columns, without the
 * embedding and terms) with their ranks.
 */
export async function hybridSearch(search: HybridSearch): Promise<Array<RankedCandidate & { row: Record<string, unknown> }>> {
  const rows = await steered<HybridRow>(hybridQuery(search));
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return rows.map((r) => ({
    id: r.row.id as string,
    vectorRank: num(r.vector_rank),
    vectorScore: num(r.vector_score),
    lexicalRank: num(r.lexical_rank),
    lexicalScore: num(r.lexical_score),
    score: Number(r.rrf),
    row: r.row,
  }));
}

/** The plan Postgres runs for this search (EXPLAIN ANALYZE, without timings): for tests and benchmarks. */
export async function explainHybridSearch(search: HybridSearch): Promise<string> {
  const rows = await steered<Record<string, string>>(sql`explain (analyze, costs off, timing off, summary off) ${hybridQuery(search)}`);
  return rows.map((r) => Object.values(r)[0]).join('\n');
}

type HybridRow = { row: Record<string, unknown>; vector_rank: unknown; vector_score: unknown; lexical_rank: unknown; lexical_score: unknown; rrf: unknown };

function hybridQuery(search: HybridSearch): SQL {
  const table = sql.raw(search.table);
  const pool = Math.max(search.k * 4, 20);
  return sql`
      with vec as (${vectorRanking(table, search, pool)}),
      lex as (${lexicalRanking(table, search.scope, search.keywords, pool)})
      select to_jsonb(e) - 'embedding' - 'search_terms' as row,
             vec.rank as vector_rank, vec.score as vector_score, lex.rank as lexical_rank, lex.score as lexical_score,
             coalesce(1.0 / (${RRF_K} + vec.rank), 0) + coalesce(1.0 / (${RRF_K} + lex.rank), 0) as rrf
      from (select id from vec union select id from lex) candidate
      join ${table} e on e.id = candidate.id
      left join vec on vec.id = candidate.id
      left join lex on lex.id = candidate.id
      where lex.id is not null or (vec.id is not null and vec.score >= ${search.minSimilarity})
      order by rrf desc, e.created_at desc
      limit ${search.k}`;
}

/**
 * Runs a search with the planner steered to the indexes. A filtered HNSW scan keeps searching until
 * enough rows pass the filter (iterative_scan). And pgvector's cost model often prefers a sequential
 * scan and sort once a table is analysed; at scale the HNSW and GIN indexes are what keeps recall
 * fast. Both for this transaction only, in one round trip.
 */
function steered<T extends Record<string, unknown>>(query: SQL): Promise<T[]> {
  return getDb().transaction(async (tx) => {
    await tx.execute(sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('enable_seqscan', 'off', true)`);
    return (await tx.execute(query)) as unknown as T[];
  });
}

/**
 * Nearest by cosine distance: exactly over the user's rows when they are few (EXACT_SEARCH_MAX_ROWS,
 * counted through the user index), else through the HNSW index. The branch not taken is never run
 * (its condition is a one-time filter). Nothing when there is no query vector (embedder down).
 */
function vectorRanking(table: SQL, search: HybridSearch, limit: number): SQL {
  if (search.embedding.length === 0) return sql`select null::uuid as id, 0::bigint as rank, 0::float8 as score where false`;
  const vector = sql`${toVectorLiteral(search.embedding)}::vector`;
  const scope = search.scope;
  const small = sql`(select rows from user_size) <= ${EXACT_SEARCH_MAX_ROWS}`;
  return sql`
    with user_size as (select count(*) as rows from (select 1 from ${table} u where u.user_id = ${search.userId} limit ${EXACT_SEARCH_MAX_ROWS + 1}) u)
    select id, row_number() over (order by distance) as rank, 1 - distance as score
    from (
      (select id, distance from (
         select e.id, e.embedding <=> ${vector} as distance from ${table} e
         where ${scope} and e.embedding is not null and ${small} offset 0
       ) mine order by distance limit ${limit})
      union all
      (select e.id, e.embedding <=> ${vector} as distance from ${table} e
       where ${scope} and e.embedding is not null and not ${small}
       order by e.embedding <=> ${vector} limit ${limit})
    ) nearest`;
}

/**
 * Rank rows by the query terms they hold, each weighted by how rare it is among the matching rows
 * (an IDF over the candidates) and by its length, so a rare name outweighs a common word. Each term
 * is an equality lookup in the (user_id, search_terms) GIN index, at most ROWS_PER_TERM rows.
 */
function lexicalRanking(table: SQL, scope: SQL, keywords: string[], limit: number): SQL {
  const terms = [...new Set(keywords.filter((k) => k.length >= 1))].slice(0, 16);
  if (terms.length === 0) return sql`select null::uuid as id, 0::bigint as rank, 0::float8 as score where false`;
  // One pass over the matching rows (materialised): their term hits give the document frequencies.
  return sql`
    with hits as materialized (
      select h.id, h.created_at, t.term
      from unnest(${sql.param(terms)}::text[]) as t(term)
      cross join lateral (
        select e.id, e.created_at from ${table} e
        where ${scope} and e.search_terms @> array[t.term]
        limit ${ROWS_PER_TERM}
      ) h
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
