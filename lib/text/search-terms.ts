/**
 * The terms of the lexical index: the `search_terms` column of episodes and facts, GIN-indexed
 * together with the user id, and matched by equality, which the index answers for one user without
 * touching other users' rows. The query side (lib/memory/keywords.ts) normalises the same way:
 * - words of alphabetic scripts, lower-cased and lightly stemmed ("Movies" → "movie");
 * - CJK text, which has no spaces: the words `Intl.Segmenter` finds, plus every character bigram of
 *   each run, so a query word still meets a text the segmenter cut differently ("北京" in "北京市").
 * - every term cut to MAX_TERM_CHARS characters (capTerm), here and on the query side alike, so a
 *   longer "word" is stored and still finds itself.
 * Pure text processing, shared with the embedder's text features and the rewrite rules; the code that
 * writes a row computes its terms here and hands them to db/.
 */
const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]/u;
const TOKEN = /[\p{L}\p{N}]+/gu;
const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+/gu;

export function isCjk(char: string): boolean {
  return CJK.test(char);
}

/** Words and CJK characters, in order. "I live in 北京" → ["i", "live", "in", "北", "京"]. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(TOKEN)) {
    let run = '';
    for (const char of match[0]) {
      if (isCjk(char)) {
        if (run) out.push(run);
        run = '';
        out.push(char);
      } else {
        run += char;
      }
    }
    if (run) out.push(run);
  }
  return out;
}

/** A light suffix strip so "movies"/"movie", "lives"/"live" and "directed"/"director" meet. Not a real stemmer. */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 5 && (word.endsWith('or') || word.endsWith('er'))) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

export type Segment = { text: string; index: number };

/** The word-like segments of a text as the Chinese segmenter cuts it, each with where it starts (runs of digits or Latin letters are segments too). */
export function segmentWords(text: string): Segment[] {
  return [...segmenter.segment(text)]
    .filter((segment) => segment.isWordLike)
    .map((segment) => ({ text: segment.segment, index: segment.index }));
}

/** The words of each CJK run as the segmenter cuts them: "我住在北京市" → 我, 住在, 北京市 (dictionary-dependent). */
export function cjkWords(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(CJK_RUN)) out.push(...segmentWords(run).map((word) => word.text));
  return out;
}

/** Every two-character window of each CJK run. */
function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(CJK_RUN)) {
    const chars = [...run];
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  }
  return out;
}

/**
 * The longest term, in characters (code points). Each term is one entry of the GIN index, which
 * Postgres refuses above about 2.7 kB ("index row size exceeds maximum"): 100 characters are at most
 * 400 bytes in UTF-8, and longer than any real word.
 */
export const MAX_TERM_CHARS = 100;

/** A term as the index keeps it: its first MAX_TERM_CHARS characters, never half a surrogate pair. */
export function capTerm(term: string): string {
  return term.length <= MAX_TERM_CHARS ? term : Array.from(term).slice(0, MAX_TERM_CHARS).join('');
}

/** What a stored text is findable by. Stop words are kept: queries never ask for them, and they cost only index space. */
export function documentTerms(text: string): string[] {
  const lower = text.toLowerCase();
  const terms = new Set<string>();
  for (const word of words(lower)) if (!isCjk(word) && word.length > 1) terms.add(capTerm(stem(word)));
  for (const word of cjkWords(lower)) terms.add(capTerm(word));
  for (const bigram of cjkBigrams(lower)) terms.add(bigram);
  return [...terms];
}
