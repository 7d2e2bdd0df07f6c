/**
 * When an English clause places what it says, read by compromise's verb grammar (its model ships in the package):
 * the first verb's tense and form. A past state or habit ("I lived in", "I was a nurse", "I used to work at") is past;
 * the perfect ("I've lived here for years", "I've switched to") holds now, like the present and the future.
 */
import nlp from 'compromise';
import type { Reading, Timing } from '../fact-types';

/** Words that say where the user comes from, whatever the tense: "I was born in", "I'm originally from", "my hometown". */
const ORIGIN_EN = /\b(?:born|grew up|raised|brought up|originally|home ?town|birthplace)\b/i;

export function timingEn({ s: clause }: Reading): Timing {
  const doc = nlp(clause);
  const verbs = doc.verbs();
  const verb = verbs.eq(0) as typeof verbs;
  const { tense = '', form = '' } =
    (verb.json()[0] as { verb?: { grammar?: { tense?: string; form?: string } } } | undefined)?.verb?.grammar ?? {};
  // Forms: simple-past, past-progressive, passive-past, auxiliary-past ("used to"), present-perfect-progressive …
  const past = form ? /(?:^|-)past(?:-|$)/.test(form) : tense === 'PastTense';
  if (!past) return { origin: ORIGIN_EN.test(clause), past: false, present: clause };
  // The same statement in the present, for the slot patterns: "I was based in" → "I am based in", "I used to work" → "I work".
  if (!form.startsWith('passive')) verb.toInfinitive();
  const present = doc
    .text()
    .replace(/\b(i) (?:be|is|was)\b/i, '$1 am')
    .replace(/\b(we) (?:be|is|were)\b/i, '$1 are');
  return { origin: ORIGIN_EN.test(clause), past: true, present };
}
