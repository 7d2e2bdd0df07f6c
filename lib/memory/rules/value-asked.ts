/**
 * What kind of value a question about the user's own life asks for, read by its grammar: a measure ("What's
 * my phone number?", "How old is my cat?", 我月薪多少) needs a number (`numbersHeld` reads which texts hold
 * one); "which N" (Which hospital does my husband work at?, 我在哪家公司上班) needs a particular N, which the
 * offline model tells by WordNet's kinds (lib/llm/offline-value.ts, on the data the server holds, not loaded
 * in these threads). A question about something else ("How many chapters does it have?") asks what the world
 * knows, not memory: it asks no value here. Counting ("how many", 几个) and times ("which day", 哪天) neither.
 */
import { cjkWords } from '@/lib/text/search-terms';
import { type Term, termsOf } from './en/tagged';
import { isChinese } from './fact-types';

/** `noun`: the kind "which" asks about, as written (English in its base form). */
export type ValueAsked = { kind: 'number' } | { kind: 'instance'; noun: string };

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
  return { kind: 'instance', noun: terms[j].lemma };
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
  return noun && noun.length > 1 ? { kind: 'instance', noun } : null;
}

// A number: digits, or Chinese numerals beyond a lone 一 (一家 is "a", not one of something).
const NUMBER_ZH = /\p{Nd}|[二两三四五六七八九十百千万亿半]|一[十百千万亿]/u;

/** Which texts hold a number: in figures, in Chinese numerals, or in words ("forty"). */
export function numbersHeld(texts: string[]): boolean[] {
  return texts.map((text) => NUMBER_ZH.test(text) || termsOf(text).some((t) => t.tags.includes('Value')));
}
