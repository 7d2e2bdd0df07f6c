/**
 * Whether evidence carries the value a question asks for (lib/memory/rules/value-asked.ts reads which): a
 * number, or a particular one of a kind. Particular is told by WordNet's kinds and the bilingual bridge, which
 * this process holds already: a member of the kind (the oboe for "which instrument"), a name, a number, or the
 * kind's word told apart by a word the question lacks ("the bakery on Fenwick Street", 招商银行, 农业银行) or
 * described after a copula ("My bicycle is the green one with a wicker basket"). A
 * text naming the kind and nothing particular does not carry one ("He works at a hospital"); of a text that does
 * not name the kind this cannot tell (腾讯 for 哪家公司): null.
 */
import type { ValueAsked } from '@/lib/memory/rules/value-asked';
import { chineseBridgeWords } from '@/lib/text/bilingual';
import { isTimeWord, kindsOfWord, kindWords, nounsNamed } from '@/lib/text/kinds';
import { cjkWords, isCjk, segmentWords, words } from '@/lib/text/search-terms';
import { contentFeatures, properNames } from '@/lib/text/text-features';

const hasCjk = (text: string) => [...text].some(isCjk);

// Words after the kind's that tell which one follows ("a course in bookbinding", "the band called Moss").
const TELLING_WHICH = new Set(['in', 'of', 'called', 'named']);
// After the kind, a copula says what it is ("My bicycle is the green one with a basket", 我的车是白色的): a description within
// DESCRIPTION_WORDS words of it tells which one.
const COPULAS = new Set(['is', 'was', 'are', 'were', '是']);
const DESCRIPTION_WORDS = 4;

/** Whether each text carries the value asked (null: cannot tell); null when no value is asked, or the kind is none WordNet knows. */
export function valuesCarried(question: string, asked: ValueAsked | null, texts: string[]): Array<boolean | null> | null {
  if (!asked) return null;
  if (asked.kind === 'number') return asked.carried;
  const nouns = kindNamed(asked.noun);
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
  // The text's words in order (Chinese as the segmenter cuts them, with any Latin words between).
  const said = hasCjk(text) ? segmentWords(text).map((word) => word.text.toLowerCase()) : words(text);
  const isKind = (word: string) => nouns.includes(word) || [...nounsNamed(word)].some((noun) => nouns.includes(noun));
  const at = said.flatMap((word, i) => (isKind(word) ? [i] : []));
  const compound = (word: string) => nouns.some((noun) => isCjk(noun[0]) && word.length > noun.length && word.endsWith(noun));
  if (at.length === 0 && !said.some(compound)) return null;
  const toldApart = (word: string | undefined) =>
    word !== undefined && word.length > 1 && !questionWords.has(word) && contentFeatures(word).length > 0;
  return (
    properNames(text).length > 0 ||
    /\p{Nd}/u.test(text) ||
    (hasCjk(text) && /\p{Script=Latin}{2,}/u.test(text)) ||
    said.some(compound) ||
    at.some(
      (i) =>
        toldApart(said[i - 1]) ||
        (TELLING_WHICH.has(said[i + 1]) && toldApart(said[i + 2])) ||
        (COPULAS.has(said[i + 1]) && said.slice(i + 2, i + 2 + DESCRIPTION_WORDS).some(toldApart)),
    )
  );
}
