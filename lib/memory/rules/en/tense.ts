/**
 * When an English clause places what it says, read by compromise's verb grammar (its model ships in the package):
 * the first verb's tense and form. A past state or habit ("I lived in", "I was a nurse", "I used to work at") is past;
 * the perfect ("I've lived here for years", "I've switched to") holds now, like the present and the future.
 */
import type { Reading } from '../fact-types';
import { stripLead } from './read';
import { documentOf } from './tagged';

/** Words that say where the user comes from, whatever the tense: "I was born in", "I'm originally from", "my hometown". */
const ORIGIN_EN = /\b(?:born|grew up|raised|brought up|originally|home ?town|birthplace|childhood|youth|teens|early years)\b/i;

export const originEn = ({ s }: Reading) => ORIGIN_EN.test(s);

/** "I was based in" → "I am based in", "I used to work at" → "I work at"; null for a clause not in the past. */
export function pastAsPresentEn({ s }: Reading): string | null {
  const clause = stripLead(s);
  // Only the user's own statements become facts: tagging (a few milliseconds a clause) is spent on those alone.
  return /^(?:i|we)\b/i.test(clause) ? pastAsPresent(clause) : null;
}

/** Whether a clause's first verb is in the past ("I lived", "I was living", "I used to live"). */
export const isPastEn = (clause: string) => pastAsPresent(clause) !== null;

function pastAsPresent(clause: string): string | null {
  const doc = documentOf(clause);
  const verbs = doc.verbs();
  const verb = verbs.eq(0) as typeof verbs;
  const { tense = '', form = '' } =
    (verb.json()[0] as { verb?: { grammar?: { tense?: string; form?: string } } } | undefined)?.verb?.grammar ?? {};
  // Forms: simple-past, past-progressive, passive-past, auxiliary-past ("used to"), present-perfect-progressive …
  const past = form ? /(?:^|-)past(?:-|$)/.test(form) : tense === 'PastTense';
  if (!past) return null;
  if (!form.startsWith('passive')) verb.toInfinitive();
  return doc
    .text()
    .replace(/\b(i) (?:be|is|was)\b/i, '$1 am')
    .replace(/\b(we) (?:be|is|were)\b/i, '$1 are');
}

/**
 * Whether a question asks what happened ("Which cities did I visit?", "Where have I travelled?"): its first verb is
 * past, or its last is with nothing wished or planned after it ("… have I said I want to see?" asks for plans too).
 */
export function asksWhatHappenedEn(question: string): boolean {
  const grammar = (documentOf(question).verbs().json() as { verb?: { grammar?: { tense?: string; isInfinitive?: boolean } } }[]).map(
    (verb) => verb.verb?.grammar ?? {},
  );
  if (grammar.length === 0 || grammar.some((verb) => verb.isInfinitive)) return false;
  return grammar[0].tense === 'PastTense' || grammar.at(-1)!.tense === 'PastTense';
}
