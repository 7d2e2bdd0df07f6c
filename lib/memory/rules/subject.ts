/**
 * Whom a sentence is about: the user ("I moved…", "Where do I live?"), someone else ("My sister lives…",
 * "What does Obi do?", 我姐姐住在…), or neither said. The offline model prefers evidence about whom the
 * question asks: "Where do I live?" is not answered by where the user's sister lives.
 */
import { isPersonWord } from './en/people';
import { type Term, termsOf } from './en/tagged';
import { isChinese } from './fact-types';
import { ABOUT_SOMEONE_ELSE } from './zh/slots';

export type Subject = 'user' | 'other' | 'unsaid';

export function subjectOf(text: string): Subject {
  // A message that tells something and then asks is about whom its question is: "My friend wants to call. What time suits me?"
  const sentences = text.split(/(?<=[.!?。！？])\s*/u).filter((s) => s.trim() !== '');
  const asking = sentences.findLast((s) => /[?？]$/u.test(s.trim())) ?? sentences[0] ?? '';
  return isChinese(asking) ? subjectZh(asking.trim()) : subjectEn(asking);
}

export const subjectsOf = (texts: string[]): Subject[] => texts.map(subjectOf);

/**
 * The words before the sentence's verb, or in a question the words between its verb and the next
 * ("Which dentist do I go to?": I): "I" or "we" is the user; a person (a word for one, as the tagger
 * or the family words of the rules know it, a name, he/she/they) is someone else. A pet is not: "What
 * kind of dog do we have?" is answered by "Our puppy is a beagle". "My flat" is neither said: the user's things are theirs.
 */
function subjectEn(text: string): Subject {
  const terms = termsOf(text);
  const isVerb = (t: Term) => t.tags.includes('Verb');
  // A question word opens a question, or is in one; in a statement it starts a relative clause ("…Dutch, which is handy").
  const question = /[?？]\s*$/u.test(text) || terms[0]?.tags.includes('QuestionWord');
  const asked = question ? terms.findIndex((t) => t.tags.includes('QuestionWord')) : -1;
  let i = 0;
  if (asked >= 0) {
    i = terms.findIndex((t, k) => k > asked && isVerb(t)) + 1;
    if (i === 0) return 'unsaid';
  } else {
    while (i < terms.length && ['Adverb', 'Conjunction', 'Interjection'].some((tag) => terms[i].tags.includes(tag))) i++;
  }
  const before: Term[] = [];
  for (; i < terms.length && !isVerb(terms[i]); i++) before.push(terms[i]);
  // "I'm" is one term, tagged a pronoun.
  const word = (t: Term) => t.normal.split(/['’]/u)[0];
  if (before.some((t) => t.tags.includes('Pronoun') && ['i', 'we', 'me', 'us'].includes(word(t)))) return 'user';
  const person = (t: Term) =>
    (t.tags.includes('Actor') && !t.tags.includes('Possessive')) ||
    isPersonWord(t.normal) ||
    t.tags.includes('Person') ||
    // A name that is neither a place nor a people's ("My French is rusty": the language).
    (t.tags.includes('ProperNoun') && !t.tags.includes('Place') && !t.tags.includes('Demonym')) ||
    (t.tags.includes('Pronoun') && ['he', 'she', 'they'].includes(t.normal));
  return before.some(person) ? 'other' : 'unsaid';
}

/** 我 opening the clause is the user, unless one of the user's people or pets follows it (我姐姐…); 他/她 is someone else. */
function subjectZh(text: string): Subject {
  if (ABOUT_SOMEONE_ELSE.test(text) || /^[他她]/u.test(text)) return 'other';
  return /^我/u.test(text) ? 'user' : 'unsaid';
}
