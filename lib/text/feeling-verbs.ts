import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readIndex, readSynsetLine, WORDNET_DICT } from './wordnet-files';

/**
 * Verbs that say the user likes or dislikes something, read from WordNet's verbs of emotion (verb.emotion)
 * instead of a list: a verb is one of liking when one of its common senses is, within a few hypernyms, a kind
 * of liking, loving or enjoying ("cherish" → love, "prefer" → like, "relish" is a way to enjoy); of disliking,
 * when it is a kind of disliking or hating ("abhor" → hate → dislike, "resent", "scorn"). Wanting is neither:
 * "miss", "fancy" and "crave" are kinds of desire, and missing a town is no liking of it. Multi-word verbs are
 * WordNet's own ("look down on", "hold dear").
 */
export type Feeling = 'like' | 'dislike';

/**
 * The roots of the two feelings: the verb.emotion synsets holding these words that are kinds of nothing else
 * ("like" as "be fond of", not "like" as a wish, which is a kind of wanting).
 */
const ROOT_WORDS: Record<Feeling, string[]> = { like: ['like', 'love', 'enjoy'], dislike: ['dislike', 'hate'] };
/** WordNet's lexicographer file of verbs of emotion. */
const EMOTION = '37';
/** A verb's senses looked at, most used first: a rare sense ("treasure" as hoarding) says little of what people mean. */
const SENSES = 3;
/** Hypernyms climbed from a sense: "abhor" → hate → dislike. */
const LEVELS = 3;

type EmotionSynset = { lemmas: string[]; hypernyms: number[] };

let feelings: Map<string, Feeling> | undefined;

/** Every verb of liking and disliking WordNet knows, by lemma ("look down on"), read once (about 30 ms). */
function load(): Map<string, Feeling> {
  const synsets = new Map<number, EmotionSynset>();
  for (const line of readFileSync(path.join(WORDNET_DICT, 'data.verb'), 'latin1').split('\n')) {
    if (!line || line.startsWith(' ') || line.split(' ', 2)[1] !== EMOTION) continue;
    const { offset, lemmas, pointers } = readSynsetLine(line, 'v');
    synsets.set(offset, { lemmas: lemmas.map((l) => l.toLowerCase().replaceAll('_', ' ')), hypernyms: pointers(['@']) });
  }
  const rootOf = (synset: EmotionSynset): Feeling | null => {
    if (synset.hypernyms.length > 0) return null;
    const feeling = (Object.keys(ROOT_WORDS) as Feeling[]).find((f) => ROOT_WORDS[f].some((w) => synset.lemmas.includes(w)));
    return feeling ?? null;
  };
  const feelingOf = (offset: number, level: number): Feeling | null => {
    const synset = synsets.get(offset);
    if (!synset) return null;
    const root = rootOf(synset);
    if (root || level === LEVELS) return root;
    for (const hypernym of synset.hypernyms) {
      const found = feelingOf(hypernym, level + 1);
      if (found) return found;
    }
    return null;
  };
  const verbs = new Map<string, Feeling>();
  readIndex('index.verb', (lemma, _use, offsets) => {
    for (const offset of offsets.slice(0, SENSES)) {
      const feeling = feelingOf(offset, 0);
      if (feeling) return void verbs.set(lemma.replaceAll('_', ' '), feeling);
    }
  });
  return verbs;
}

/** The longest WordNet verb of liking or disliking at the start of `words` (lower case, base form), and how many words it takes. */
export function feelingVerbAt(words: string[]): { feeling: Feeling; length: number } | null {
  feelings ??= load();
  for (let length = Math.min(4, words.length); length > 0; length--) {
    const feeling = feelings.get(words.slice(0, length).join(' '));
    if (feeling) return { feeling, length };
  }
  return null;
}
