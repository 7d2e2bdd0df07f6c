import 'server-only';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { getDb } from './client';
import { episodes, facts } from './schema';
import { type LexicalQuery, MAX_QUERY_TERMS, queryTerms, queryWords } from './search-vector';
import { type RankedCandidate, RRF_K, toVectorLiteral } from './vector';

export type HybridSearch = {
  table: 'episodes' | 'facts';
  userId: string;
  /** A filter over rows aliased `e`; it must include the user id. */
  scope: SQL;
  embedding: number[];
  /** The lexical query (lib/memory/keywords.ts searchKeywords), read into the index's lexemes (db/search-vector.ts). */
  keywords: LexicalQuery;
  k: number;
  /** Rows found only by the vector search must be at least this similar (cosine); keyword matches always count. */
  minSimilarity: number;
  /** A jsonb object over the found row `e`, merged into each returned row: what a caller would otherwise read in another round trip. */
  annotate?: SQL;
};

/**
 * A user with at most this many rows in a memory table is searched exactly (every row's distance,
 * through the user index), and their rows stay out of the table's HNSW graph: the database moves a
 * user's rows into it when a statement takes them past this many (migration 0017, which holds the
 * same number). A filtered graph walk for a small user would wade through other users' vectors
 * before it found enough of theirs.
 */
export const EXACT_SEARCH_MAX_ROWS = 2000;
/**
 * Rows read per query term. A term in more of the user's rows than this says little about which
 * row is meant (its weight is near zero); reading them all would make a common word cost as much
 * as the user has memories.
 */
const ROWS_PER_TERM = 1000;
/** How many rows, per row a lexical ranking returns, are scored by their own vectors (lexicalRanking). */
const RESCORED_PER_RESULT = 5;

/**
 * Hybrid recall over one memory table: rows ranked by cosine distance and by the query's lexemes
 * they hold, fused by reciprocal rank fusion. The lexical half, and the vector half of a user with
 * few rows, read only that user's rows; a large user's vector half walks the HNSW graph shared by all
 * users (filtered, iteratively: SESSION_SETTINGS). One statement, one round trip, no
 * transaction. Returns the rows (snake_case columns, without the embedding and index, plus
 * `annotate`'s keys) with their ranks and how many of the query's terms each holds.
 */
export async function hybridSearch(search: HybridSearch): Promise<HybridHit[]> {
  const [hits] = await hybridSearches([search]);
  return hits;
}

export type HybridHit = SearchHit & { row: Record<string, unknown> };

/**
 * Several hybrid searches in one statement (one round trip, one plan): each search's hits, in the
 * order given. The searches are independent parts of a UNION ALL, each with its own terms.
 */
export async function hybridSearches(searches: HybridSearch[]): Promise<HybridHit[][]> {
  if (searches.length === 0) return [];
  const parts = searches.map((search, i) => sql`select ${i}::int as search, q.* from (${hybridQuery(search)}) q`);
  const rows = (await getDb().execute(sql.join(parts, sql` union all `))) as unknown as Array<HybridRow & { search: number }>;
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const results = searches.map((): Array<HybridHit & { place: number }> => []);
  for (const r of rows) {
    results[Number(r.search)].push({
      id: r.row.id as string,
      vectorRank: num(r.vector_rank),
      vectorScore: num(r.vector_score),
      lexicalRank: num(r.lexical_rank),
      lexicalScore: num(r.lexical_score),
      score: Number(r.rrf),
      sharedLexemes: Number(r.shared_lexemes),
      queryLexemes: Number(r.query_lexemes),
      row: r.row,
      place: Number(r.place),
    });
  }
  // A UNION keeps no order of its parts: each search's rows go back in their fused order.
  return results.map((hits) => hits.sort((a, b) => a.place - b.place).map(({ place: _, ...hit }) => hit));
}

/** A found row's ranks, and how many of the query's lexemes it holds, of how many the query has. */
export type SearchHit = RankedCandidate & { sharedLexemes: number; queryLexemes: number };

/** The plan Postgres runs for this search (EXPLAIN ANALYZE, without timings): for tests and benchmarks. */
export async function explainHybridSearch(search: HybridSearch): Promise<string> {
  const rows = (await getDb().execute(
    sql`explain (analyze, costs off, timing off, summary off) ${hybridQuery(search)}`,
  )) as unknown as Array<Record<string, string>>;
  return rows.map((r) => Object.values(r)[0]).join('\n');
}

type HybridRow = {
  row: Record<string, unknown>;
  place: unknown;
  vector_rank: unknown;
  vector_score: unknown;
  lexical_rank: unknown;
  lexical_score: unknown;
  rrf: unknown;
  shared_lexemes: unknown;
  query_lexemes: unknown;
};

/**
 * The columns a search returns, named from the schema: all but the vector and the lexical index,
 * which the caller never reads (and turning a 512-float vector into JSON costs more than the rest).
 */
const returnedColumns = Object.fromEntries(
  Object.entries({ episodes, facts }).map(([name, table]) => [
    name,
    sql.raw(
      Object.values(getTableColumns(table))
        .map((column) => column.name)
        .filter((column) => column !== 'embedding' && column !== 'search_vector')
        .map((column) => `e.${column}`)
        .join(', '),
    ),
  ]),
) as Record<HybridSearch['table'], SQL>;

/**
 * Each half hands the fusion k rows: the k the caller asks for, which it derives from what its
 * block of the budget can hold (lib/memory/context/budget-policy.ts recallTopK), not a multiple of it. The
 * HNSW walk's time grows with the rows it must return (iterative scans past hnsw.ef_search), and
 * rows below the top k of both halves rarely reach the fused top k. The candidates of both halves
 * are fused and cut to k on their ids alone; only those k rows are read whole (and annotated).
 * `terms` holds the query's lexemes, read once.
 */
function hybridQuery(search: HybridSearch): SQL {
  const table = sql.raw(search.table);
  const pool = search.k;
  return sql`
      with terms as materialized (${queryTerms(search.keywords)}),
      vec as (${vectorRanking(table, search, pool)}),
      lex as (${lexicalRanking(table, search.scope, pool)}),
      fused as (
        select coalesce(vec.id, lex.id) as id, coalesce(vec.created_at, lex.created_at) as created_at,
               vec.rank as vector_rank, vec.score as vector_score, lex.rank as lexical_rank, lex.score as lexical_score,
               coalesce(1.0 / (${RRF_K} + vec.rank), 0) + coalesce(1.0 / (${RRF_K} + lex.rank), 0) as rrf
        from vec full join lex on lex.id = vec.id
        where lex.id is not null or vec.score >= ${search.minSimilarity}
        order by rrf desc, created_at desc
        limit ${search.k})
      select (select to_jsonb(r) from (select ${returnedColumns[search.table]}) r)${search.annotate ? sql` || ${search.annotate}` : sql``} as row,
             fused.vector_rank, fused.vector_score, fused.lexical_rank, fused.lexical_score, fused.rrf,
             row_number() over (order by fused.rrf desc, fused.created_at desc) as place,
             (select count(*) from terms t where e.search_vector @@ t.query) as shared_lexemes,
             (select count(*) from terms) as query_lexemes
      from fused join ${table} e on e.id = fused.id
      order by fused.rrf desc, fused.created_at desc`;
}

/**
 * Nearest by cosine distance: exactly over the user's rows while they are out of the HNSW graph
 * (few: EXACT_SEARCH_MAX_ROWS), else through the graph, which then holds all of them. Which one is
 * one probe of the user's in-graph index; the branch not taken is never run (its condition is a
 * one-time filter). Nothing when there is no query vector (embedder down).
 */
function vectorRanking(table: SQL, search: HybridSearch, limit: number): SQL {
  if (search.embedding.length === 0)
    return sql`select null::uuid as id, null::timestamptz as created_at, 0::bigint as rank, 0::float8 as score where false`;
  const vector = sql`${toVectorLiteral(search.embedding)}::vector`;
  const scope = search.scope;
  const graph = sql`(select yes from in_graph)`;
  return sql`
    with in_graph as (select memlens_in_graph(${search.table}::regclass, ${search.userId}::uuid) as yes)
    select id, created_at, row_number() over (order by distance) as rank, 1 - distance as score
    from (
      (select id, created_at, distance from (
         select e.id, e.created_at, e.embedding <=> ${vector} as distance from ${table} e
         where ${scope} and e.embedding is not null and not ${graph} offset 0
       ) mine order by distance limit ${limit})
      union all
      (select e.id, e.created_at, e.embedding <=> ${vector} as distance from ${table} e
       where ${scope} and e.in_graph and e.embedding is not null and ${graph}
       order by e.embedding <=> ${vector} limit ${limit})
    ) nearest`;
}

/**
 * Rank rows by the query's lexemes (the `terms` of the statement) they hold. Each lexeme weighs by
 * how rare it is among the matching rows (an IDF over the candidates) times its length, so a rare
 * name outweighs a common word. The best RESCORED_PER_RESULT × limit rows by the sum of those
 * weights are then ranked by each weight times the row's `ts_rank_cd` for that lexeme (how often it
 * occurs, for the row's length), which only the row's own vector tells: read for those rows alone.
 * Each lexeme is one lookup in the (user_id, search_vector) GIN index, at most ROWS_PER_TERM rows.
 */
function lexicalRanking(table: SQL, scope: SQL, limit: number): SQL {
  // One pass over the matching rows (materialised): their lexeme hits give the document frequencies.
  return sql`
    with hits as materialized (
      select h.id, h.created_at, t.term
      from terms t
      cross join lateral (
        select e.id, e.created_at from ${table} e
        where ${scope} and e.search_vector @@ t.query
        limit ${ROWS_PER_TERM}
      ) h
    ),
    df as (select term, count(*) as rows from hits group by term),
    matched as (select count(distinct id) as rows from hits),
    weights as (
      select t.term, t.query, ln((matched.rows + 1)::float8 / df.rows) * length(t.term) as weight
      from terms t join df on df.term = t.term cross join matched
    ),
    best as (
      select h.id, h.created_at from hits h join weights w on w.term = h.term
      group by h.id, h.created_at
      order by sum(w.weight) desc, h.created_at desc
      limit ${limit * RESCORED_PER_RESULT}
    ),
    scored as (
      select b.id, b.created_at, sum(w.weight * ts_rank_cd(e.search_vector, w.query, 1))::float8 as score
      from best b join hits h on h.id = b.id join weights w on w.term = h.term join ${table} e on e.id = b.id
      group by b.id, b.created_at
    )
    select id, created_at, row_number() over (order by score desc, created_at desc) as rank, score
    from scored
    order by rank limit ${limit}`;
}

/** Where one row stands in a search: its own scores and ranks in each half, and its place in the fused list. */
export type RowStanding = {
  /** Whether the row is among those the search's scope covers at all. */
  inScope: boolean;
  /** Cosine similarity to the query, and 1 + how many rows of the scope are closer (null without a vector). */
  vectorScore: number | null;
  vectorRank: number | null;
  /** The lexical score and rank (null when the row shares no query term). */
  lexicalScore: number | null;
  lexicalRank: number | null;
  /** The query's words (lower-cased, as written) whose lexemes the row holds. */
  sharedTerms: string[];
  /** How many of the query's lexemes the row holds, of how many the query has (as a found row's SearchHit). */
  sharedLexemes: number;
  queryLexemes: number;
  /** Its place in the fused list the search cuts to k (null: not in it), and how long that list is. */
  fusedRank: number | null;
  fusedCount: number;
  /** How many rows each half hands to the fusion. */
  pool: number;
};

/**
 * Scores one row as `hybridSearch` would see it: the same two halves and the same fusion, uncut,
 * plus the row's exact ranks in each half. `asOf` leaves out rows made after that time (what a
 * past search could not have met). Read-only; the search itself is unchanged.
 */
export async function rowStanding(given: HybridSearch, id: string, asOf?: Date): Promise<RowStanding> {
  const search = asOf ? { ...given, scope: sql`(${given.scope}) and e.created_at <= ${asOf.toISOString()}` } : given;
  const table = sql.raw(search.table);
  const pool = search.k;
  const vector = search.embedding.length > 0 ? sql`${toVectorLiteral(search.embedding)}::vector` : sql`null::vector`;
  const [row] = (await getDb().execute(sql`
    with terms as materialized (${queryTerms(search.keywords)}),
    vec as (${vectorRanking(table, search, pool)}),
    lex as (${lexicalRanking(table, search.scope, pool)}),
    lex_all as (${lexicalRanking(table, search.scope, ROWS_PER_TERM * MAX_QUERY_TERMS)}),
    fused as (
      select id, row_number() over (order by rrf desc, created_at desc) as fused_rank from (
        select coalesce(vec.id, lex.id) as id, coalesce(vec.created_at, lex.created_at) as created_at,
               coalesce(1.0 / (${RRF_K} + vec.rank), 0) + coalesce(1.0 / (${RRF_K} + lex.rank), 0) as rrf
        from vec full join lex on lex.id = vec.id
        where lex.id is not null or vec.score >= ${search.minSimilarity}) f
    ),
    target as (select e.id, e.embedding, e.search_vector from ${table} e where e.id = ${id} and ${search.scope})
    select exists (select 1 from target) as in_scope,
           (select 1 - (t.embedding <=> ${vector}) from target t) as vector_score,
           (select 1 + count(*) from ${table} e, target t
             where t.embedding is not null and ${vector} is not null and ${search.scope} and e.embedding is not null
               and (e.embedding <=> ${vector}) < (t.embedding <=> ${vector})) as vector_rank,
           (select l.score from lex_all l join target t on t.id = l.id) as lexical_score,
           (select l.rank from lex_all l join target t on t.id = l.id) as lexical_rank,
           coalesce((select array_agg(distinct w.word order by w.word) from target t, terms q, (${queryWords(search.keywords)}) w
                     where w.term = q.term and t.search_vector @@ q.query), '{}') as shared_terms,
           (select count(*) from target t, terms q where t.search_vector @@ q.query) as shared_lexemes,
           (select count(*) from terms) as query_lexemes,
           (select f.fused_rank from fused f join target t on t.id = f.id) as fused_rank,
           (select count(*) from fused) as fused_count`)) as unknown as Array<Record<string, unknown>>;
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const inScope = row.in_scope === true || row.in_scope === 't';
  return {
    inScope,
    vectorScore: num(row.vector_score),
    vectorRank: inScope && row.vector_score !== null ? num(row.vector_rank) : null,
    lexicalScore: num(row.lexical_score),
    lexicalRank: num(row.lexical_rank),
    sharedTerms: (row.shared_terms as string[] | null) ?? [],
    sharedLexemes: Number(row.shared_lexemes),
    queryLexemes: Number(row.query_lexemes),
    fusedRank: num(row.fused_rank),
    fusedCount: Number(row.fused_count),
    pool,
  };
}
