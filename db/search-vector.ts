import { type SQL, sql } from 'drizzle-orm';

/**
 * The lexical index of episodes and facts: a `tsvector` per row, GIN-indexed with the user id
 * (btree_gin), so a lookup reads that user's postings. Two parts:
 * - the text's words under the `english` configuration (stemmed by Snowball, stop words out),
 *   after its CJK runs are blanked (the parser would take a run as one long word) and every run of
 *   non-space characters is cut to MAX_WORD_CHARS (a lexeme may not exceed 2 kB);
 * - its index terms (lib/text/bilingual.ts indexTerms, which need the JavaScript segmenter and
 *   dictionary): the CJK ones (segmented words, bigrams, the Chinese words of its English) under the
 *   `simple` configuration, the others (the English words of its Chinese) under `english`, so an
 *   English query's stemmed words meet them.
 * A query is read the same way (queryTerms), so both sides meet on the same lexemes. The migration
 * that added the column holds a copy of these expressions for its backfill.
 */

/** A search's lexical query: the query text and its CJK terms (lib/memory/keywords.ts searchKeywords). */
export type LexicalQuery = { text: string; cjk: string[] };

const CJK_RUN = String.raw`[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+`;
/** As lib/text/search-terms.ts MAX_TERM_CHARS: at most 400 bytes in UTF-8. */
const MAX_WORD_CHARS = 100;
const LONG_WORD = String.raw`(\S{${MAX_WORD_CHARS}})\S+`;

/** The query terms one search looks up at most: the longest first (a long word is rarely a common one). */
export const MAX_QUERY_TERMS = 16;

/** The text the `english` part reads. */
function alphabeticPart(text: string): SQL {
  return sql`regexp_replace(regexp_replace(${text}::text, ${CJK_RUN}::text, ' ', 'g'), ${LONG_WORD}::text, ${'\\1'}::text, 'g')`;
}

const CJK_TERM = new RegExp(`^${CJK_RUN}$`, 'u');

/** The index value of a text with these index terms, to write with the text. */
export function searchVector(text: string, terms: string[]): SQL {
  const cjk = terms.filter((term) => CJK_TERM.test(term));
  const english = terms.filter((term) => !CJK_TERM.test(term));
  return sql`(to_tsvector('english', ${alphabeticPart(text)}) || to_tsvector('english', ${english.join(' ')}::text) || to_tsvector('simple', ${cjk.join(' ')}::text))`;
}

/**
 * The distinct lexemes of a query, each with the single-lexeme tsquery that looks it up
 * (`term`, `query`): at most MAX_QUERY_TERMS, longest first. A query of stop words has none.
 */
export function queryTerms(lexical: LexicalQuery): SQL {
  const lexemes = sql`tsvector_to_array(${searchVector(lexical.text, lexical.cjk)})`;
  // A lexeme quoted as a tsquery literal (quotes and backslashes doubled): looked up as it is, never parsed again.
  return sql`select term, ('''' || replace(replace(term, '\\', '\\\\'), '''', '''''') || '''')::tsquery as query
    from unnest(${lexemes}) as t(term)
    order by length(term) desc, term limit ${MAX_QUERY_TERMS}`;
}

/**
 * The words of a query (lower-cased, as written) behind each of its lexemes (`word`, `term`): what a
 * person reads where the search explains which words a row shares. Slower than queryTerms (ts_debug).
 */
export function queryWords(lexical: LexicalQuery): SQL {
  return sql`select lower(d.token) as word, l.term from ts_debug('english', ${alphabeticPart(lexical.text)}) d, unnest(d.lexemes) as l(term)
    union select c, c from unnest(${sql.param(lexical.cjk)}::text[]) as c`;
}
