/**
 * Text processing shared by the lexical index, the embedder's text features and the rewrite rules.
 * The index itself is a Postgres `tsvector` (db/hybrid-search.ts): the `english` configuration reads
 * the words of alphabetic scripts, and CJK text, which has no spaces, is indexed by the terms
 * `cjkTerms` finds here (the `simple` configuration): the words jieba's dictionary cuts out
 * (lib/text/jieba.ts) plus every character bigram of each run, so a query word still meets a text
 * the segmenter cut differently ("北京" in "北京市"). The code that writes a row computes its CJK terms here and hands them to db/.
 */
import { cut } from './jieba';

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]/u;
const TOKEN = /[\p{L}\p{N}]+/gu;
const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]+/gu;

export function isCjk(char: string): boolean {
  return CJK.test(char);
}

/** Whether a text holds any CJK character. */
export function hasCjk(text: string): boolean {
  return CJK.test(text);
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

/** A light suffix strip so "movies"/"movie", "lives"/"live" and "directed"/"director" meet: the embedder's text features (not the lexical index). */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 5 && (word.endsWith('or') || word.endsWith('er'))) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export type Segment = { text: string; index: number };

const WORD_LIKE = /[\p{L}\p{N}]/u;
/** Kana and Hangul: jieba's dictionary is Chinese and would cut them into single characters. */
const KANA_HANGUL_RUN = /[\u3040-\u30ff\uac00-\ud7af]+/gu;
const icuSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/**
 * The word-like segments of a text, each with where it starts (runs of digits or Latin letters are
 * segments too): jieba cuts it, but for runs of kana or Hangul, which ICU's segmenter cuts.
 */
export function segmentWords(text: string): Segment[] {
  const out: Segment[] = [];
  let from = 0;
  for (const run of text.matchAll(KANA_HANGUL_RUN)) {
    out.push(...jiebaSegments(text.slice(from, run.index), from), ...icuSegments(run[0], run.index));
    from = run.index + run[0].length;
  }
  out.push(...jiebaSegments(text.slice(from), from));
  return out;
}

function jiebaSegments(text: string, offset: number): Segment[] {
  const out: Segment[] = [];
  let index = 0;
  for (const piece of text ? cut(text) : []) {
    const at = text.indexOf(piece, index);
    if (at < 0) continue;
    if (WORD_LIKE.test(piece)) out.push({ text: piece, index: offset + at });
    index = at + piece.length;
  }
  return out;
}

function icuSegments(text: string, offset: number): Segment[] {
  return [...icuSegmenter.segment(text)]
    .filter((segment) => segment.isWordLike)
    .map((segment) => ({ text: segment.segment, index: offset + segment.index }));
}

/** The words of each CJK run as the segmenter cuts them: "我住在北京市" → 我, 住, 在, 北京市 (dictionary-dependent). */
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
 * The longest CJK term, in characters (code points). A lexeme of a tsvector may not exceed 2 kB
 * (and a GIN entry about 2.7 kB): 100 characters are at most 400 bytes in UTF-8, and longer than any
 * real word. db/hybrid-search.ts cuts the words of other scripts to the same length.
 */
export const MAX_TERM_CHARS = 100;

/** A term as the index keeps it: its first MAX_TERM_CHARS characters, never half a surrogate pair. */
export function capTerm(term: string): string {
  return term.length <= MAX_TERM_CHARS ? term : Array.from(term).slice(0, MAX_TERM_CHARS).join('');
}

/** The CJK terms a stored text is findable by: its segmented words (cut by capTerm) and bigrams, lower-cased. */
export function cjkTerms(text: string): string[] {
  const lower = text.toLowerCase();
  return [...new Set([...cjkWords(lower).map(capTerm), ...cjkBigrams(lower)])];
}
