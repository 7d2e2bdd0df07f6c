/**
 * What kind of value a question about the user's own life asks for, and whether a text carries one: a
 * measure ("What's my phone number?", "How old is my cat?", 我月薪多少) needs a number; "which N" (Which
 * hospital does my husband work at?, 我在哪家公司上班) needs a particular N, not N alone. A statement that
 * names the kind and nothing particular ("He works at a hospital") tells about it but does not answer.
 * A question about something else ("How many chapters does it have?") asks what the world knows, not
 * memory: it asks no value here.
 */
import { englishBridgeWords } from '@/lib/text/bilingual';
import { isTimeWord, kindsOfWord, kindWords, nounsNamed } from '@/lib/text/kinds';
import { cjkWords, isCjk } from '@/lib/text/search-terms';
import { contentFeatures, properNames } from '@/lib/text/text-features';
import { type Term, termsOf } from './en/tagged';
import { isChinese } from './fact-types';

export type ValueAsked = { kind: 'number' } | { kind: 'instance'; nouns: string[] };

const ABOUT_THE_USER_EN = /\b(?:i|me|my|mine|we|us|our)\b/iu;
// Counting ("how many", 几个) is answered by naming the things; a measure only by a number.
const MEASURE_EN = new Set(['much', 'old']);
// 多少 before a measure word counts things (多少个); 几岁 asks an age.
const MEASURE_ZH = /多少(?![个只位本辆次件条口集回部])|几岁/u;
// 哪 with its measure word, as the segmenter cuts it or not (哪个, 哪家, 哪 门): the noun after it is the kind asked.
const WHICH_ZH = /^哪(?:些|个|家|所|门|座|条|位|种|部|本|只|辆|件)?$/u;
const MEASURE_WORD_ZH = /^(?:个|家|所|门|座|条|位|种|部|本|只|辆|件)$/u;
// A word that says only which sort: the noun after "of" is the kind ("what kind of dog").
const SORT_WORDS = new Set(['kind', 'sort', 'type']);

/** The value a question asks for, or null when it asks none this reading knows. */
export function valueAsked(question: string): ValueAsked | null {
  return isChinese(question) ? valueAskedZh(question) : valueAskedEn(question);
}

function valueAskedEn(question: string): ValueAsked | null {
  if (!ABOUT_THE_USER_EN.test(question)) return null;
  const terms = termsOf(question);
  const is = (t: Term | undefined, tag: string) => t?.tags.includes(tag) === true;
  const asked = terms.findIndex((t) => is(t, 'QuestionWord'));
  if (asked < 0) return null;
  if (terms.some((t) => is(t, 'Noun') && t.lemma === 'number')) return { kind: 'number' };
  const word = terms[asked].normal;
  if (word === 'how') return MEASURE_EN.has(terms[asked + 1]?.normal ?? '') ? { kind: 'number' } : null;
  if (word !== 'which' && word !== 'what') return null;
  let j = asked + 1;
  if (SORT_WORDS.has(terms[j]?.normal ?? '') && terms[j + 1]?.normal === 'of') j += 2;
  while (is(terms[j], 'Adjective')) j++;
  const isNoun = (t: Term | undefined) => is(t, 'Noun') && !is(t, 'Pronoun');
  if (!isNoun(terms[j])) return null;
  // The head of a compound is its last noun ("evening course": a course).
  while (isNoun(terms[j + 1])) j++;
  const noun = terms[j];
  return instanceOf(nounsNamed(noun.lemma));
}

function valueAskedZh(question: string): ValueAsked | null {
  if (!question.includes('我')) return null;
  if (MEASURE_ZH.test(question)) return { kind: 'number' };
  const words = cjkWords(question);
  let at = words.findIndex((w) => WHICH_ZH.test(w)) + 1;
  if (at === 0) return null;
  if (words[at - 1] === '哪' && MEASURE_WORD_ZH.test(words[at] ?? '')) at++;
  // A one-character word after 哪 is the thing asked itself (哪天 which day, 哪里 where), not a kind.
  const noun = words[at];
  return noun && noun.length > 1 ? instanceOf(new Set([noun, ...englishBridgeWords(noun)])) : null;
}

/** A kind WordNet knows as a noun, and not a time: its members answer "which". */
function instanceOf(named: Set<string>): ValueAsked | null {
  const nouns = [...named].filter((word) => isCjk(word[0]) || kindsOfWord(word, 'word').length > 0);
  // "Which day", "what year" ask a date, not a member of a kind.
  if (nouns.length === 0 || nouns.some(isTimeWord)) return null;
  return { kind: 'instance', nouns };
}

// A number: digits, or Chinese numerals beyond a lone 一 (一家 is "a", not one of something).
const NUMBER_ZH = /\p{Nd}|[二两三四五六七八九十百千万亿半]|一[十百千万亿]/u;

/**
 * Whether each text carries a value of the kind the question asks (null for a text this cannot tell of); null
 * when the question asks none.
 */
export function valuesCarried(question: string, texts: string[]): Array<boolean | null> | null {
  const asked = valueAsked(question);
  if (!asked) return null;
  const questionWords = new Set([...cjkWords(question), ...nounsNamed(question)]);
  return texts.map((text) => (asked.kind === 'number' ? carriesNumber(text) : carriesInstance(text, asked.nouns, questionWords)));
}

function carriesNumber(text: string): boolean {
  return NUMBER_ZH.test(text) || termsOf(text).some((t) => t.tags.includes('Value'));
}

/**
 * Whether a text names a particular one of the kind: a member of it (the cello for "which instrument"), a name, a
 * number, the kind's word told apart by a word the question does not have ("a course in bookbinding", 人民医院,
 * 协和医院). A text that names the kind and nothing particular does not ("He works at a hospital"); of one that
 * does not name the kind this cannot tell (腾讯 for 哪家公司).
 */
function carriesInstance(text: string, nouns: string[], questionWords: Set<string>): boolean | null {
  const words = isChinese(text) ? cjkWords(text) : termsOf(text).map((t) => t.lemma);
  const isKind = (word: string) => nouns.includes(word) || [...nounsNamed(word)].some((noun) => nouns.includes(noun));
  if (kindWords(text).some((kind) => nouns.includes(kind))) return true;
  const at = words.flatMap((word, i) => (isKind(word) ? [i] : []));
  if (at.length === 0 && !words.some((word) => nouns.some((noun) => word.endsWith(noun)))) return null;
  const toldApart = (word: string | undefined) =>
    word !== undefined && word.length > 1 && !questionWords.has(word) && contentFeatures(word).length > 0;
  return (
    properNames(text).length > 0 ||
    /\p{Nd}/u.test(text) ||
    (isChinese(text) && /\p{Script=Latin}{2,}/u.test(text)) ||
    words.some((word) => nouns.some((noun) => word.length > noun.length && word.endsWith(noun) && isCjk(noun[0]))) ||
    at.some((i) => toldApart(words[i - 1]) || (['in', 'of', 'called', 'named'].includes(words[i + 1]) && toldApart(words[i + 2])))
  );
}
