import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';

/**
 * The jieba segmenter (a native, dictionary-based Chinese word segmenter: linear in the text) and
 * its dictionary, loaded on first use: building the segmenter takes about 0.15 s and 50 MB, which a process
 * that never meets Chinese text should not pay. Required rather than imported so that loading
 * stays lazy while callers stay synchronous.
 */
const require = createRequire(import.meta.url);

let segmenter: Jieba | undefined;

function jiebaSegmenter(): Jieba {
  if (!segmenter) {
    const { Jieba: JiebaClass } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    segmenter = JiebaClass.withDict(jiebaDictionary());
  }
  return segmenter;
}

/** The dictionary's text: one `word frequency tag` a line (tags as ICTCLAS: n noun, v verb, r pronoun, p preposition, ...). */
export function jiebaDictionary(): Uint8Array {
  return (require('@node-rs/jieba/dict') as typeof import('@node-rs/jieba/dict')).dict;
}

/** The text cut into consecutive pieces (words, single characters, spaces, punctuation) that join back into it. */
export function cut(text: string): string[] {
  return jiebaSegmenter().cut(text, false);
}

/** The text's words with their parts of speech as the dictionary tags them ("v" a verb, "d" an adverb, "t" a time, "x" unknown). */
export function tagged(text: string): { word: string; tag: string }[] {
  return jiebaSegmenter().tag(text, true);
}
