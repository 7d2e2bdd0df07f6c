/**
 * Whether evidence carries the particular one of a kind that a "which" question asks for (lib/memory/rules/value-asked.ts
 * reads the kind). Particular is told by WordNet's kinds and the bilingual bridge, which
 * this process holds already: a member of the kind (the oboe for "which instrument"), a name, a number, or the
 * kind's word told apart by a word the question lacks, right before it or a thing named in a phrase after it
 * ("the bakery near the station", 招商银行, 农业银行, "My bicycle is the green one with a wicker basket"). A
 * text naming the kind and nothing particular does not carry one ("He works at a hospital"); of a text that does
 * not name the kind this cannot tell (腾讯 for 哪家公司): null.
 */
import { chineseBridgeWords, englishBridgeWords } from '@/lib/text/bilingual';
import { isTimeWord, kindsOfWord, kindWords, nounsNamed } from '@/lib/text/kinds';
import { cjkWords, hasCjk, isCjk, segmentWords, words } from '@/lib/text/search-terms';
import { contentFeatures, properNames } from '@/lib/text/text-features';

// A clause ends at these: a word after the kind in another clause says nothing of it (我老公在医院上班，是麻醉科的).
const CLAUSE_END = /[,;:.!?，；：。！？]/u;
// After the kind, these lead to what tells which one ("a course in bookbinding", "the bakery near the station", "the
// band called Moss", "My bicycle is the green one", 我的车是白色的), within DESCRIPTION_WORDS words. Not "as": "at a hospital
// as a nurse" tells what the person is.
const LEADS_TO_WHICH = new Set([
  'in',
  'on',
  'at',
  'near',
  'by',
  'with',
  'of',
  'off',
  'behind',
  'beside',
  'called',
  'named',
  'is',
  'was',
  'are',
  'were',
  '是',
]);
const DESCRIPTION_WORDS = 4;

/** Whether each text names a particular `noun` (null: cannot tell); null when the kind is none WordNet knows, or a time. */
export function particularsCarried(question: string, noun: string, texts: string[]): Array<boolean | null> | null {
  const nouns = kindNamed(noun);
  if (!nouns) return null;
  const questionWords = new Set([...cjkWords(question), ...nounsNamed(question)]);
  return texts.map((text) => carriesParticular(text, nouns, questionWords));
}

/**
 * The noun in both languages (its English glosses, or the Chinese words for it), where WordNet knows it as a kind
 * and not as a time ("which day" asks a date).
 */
function kindNamed(noun: string): string[] | null {
  const english = [...nounsNamed(noun)].filter((word) => !isCjk(word[0]) && kindsOfWord(word, 'word').length > 0);
  if (english.length === 0 || english.some(isTimeWord)) return null;
  return [...new Set([...english, ...(isCjk(noun[0]) ? [noun] : chineseBridgeWords(noun))])];
}

function carriesParticular(text: string, nouns: string[], questionWords: Set<string>): boolean | null {
  if (kindWords(text).some((kind) => nouns.includes(kind))) return true;
  // Each clause's words in order (Chinese as the segmenter cuts them, with any Latin words between).
  const clauses = text
    .split(CLAUSE_END)
    .map((clause) => (hasCjk(clause) ? segmentWords(clause).map((w) => w.text.toLowerCase()) : words(clause)));
  const isKind = (word: string) => nouns.includes(word) || [...nounsNamed(word)].some((noun) => nouns.includes(noun));
  const compound = (word: string) => nouns.some((noun) => isCjk(noun[0]) && word.length > noun.length && word.endsWith(noun));
  if (!clauses.some((said) => said.some((word) => isKind(word) || compound(word)))) return null;
  // A word the question lacks, in neither language, that WordNet reads as a thing ("green", "uncle"; not "again", not 上班 for "work").
  const newThing = (word: string | undefined) =>
    word !== undefined &&
    word.length > 1 &&
    contentFeatures(word).length > 0 &&
    !questionWords.has(word) &&
    ![...nounsNamed(word)].some((noun) => questionWords.has(noun)) &&
    (isCjk(word[0]) ? englishBridgeWords(word) : [word]).some((english) => kindsOfWord(english, 'word').length > 0);
  // The kind told apart: by the word right before it, or by a thing named in what follows it in its clause.
  const toldApart = (said: string[]) =>
    said.some(
      (word, i) =>
        isKind(word) &&
        (newThing(said[i - 1]) || (LEADS_TO_WHICH.has(said[i + 1]) && said.slice(i + 2, i + 2 + DESCRIPTION_WORDS).some(newThing))),
    );
  return (
    properNames(text).length > 0 ||
    /\p{Nd}/u.test(text) ||
    (hasCjk(text) && /\p{Script=Latin}{2,}/u.test(text)) ||
    clauses.some((said) => said.some(compound) || toldApart(said))
  );
}
