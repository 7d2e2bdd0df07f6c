/**
 * A routine: what the user does again and again, said with when it comes round ("Every Sunday I swim at the lido",
 * "I knit in the evenings", 我每周二晚上去打羽毛球, 周末我一般去爬山). Read last, where no other kind of fact is
 * said: the recurrence (relative-dates.ts) is what makes it one, and the value is the clause without it and the subject.
 */
import { cutEn } from './en/read';
import { termsOf } from './en/tagged';
import { type Found, one, type Reading } from './fact-types';

// A state is no routine ("I'm usually tired", "I often feel low"); being somewhere is ("Thursdays I'm at the studio").
const STATE_VERBS = new Set(['feel', 'seem', 'look', 'get', 'become', 'stay', 'remain', 'sound']);
const PLACE_PREPOSITIONS = new Set(['at', 'in', 'on', 'with', 'out', 'down', 'up', 'over']);

export function routineEn({ s, recurring }: Pick<Reading, 's' | 'recurring'>): Found[] | null {
  const m = recurring ? /^(?:i|we) (\S.*)$/i.exec(s) : null;
  if (!m) return null;
  const terms = termsOf(s);
  const verb = terms.findIndex((t, i) => i > 0 && t.tags.includes('Verb') && !t.tags.includes('Adverb'));
  if (verb !== 1 && !(verb === 2 && terms[1].tags.includes('Adverb'))) return null;
  const state = terms[verb].tags.includes('Copula') || STATE_VERBS.has(terms[verb].lemma);
  if (state && !PLACE_PREPOSITIONS.has(terms[verb + 1]?.normal ?? '')) return null;
  const value = cutEn(m[1])
    .replace(/(?<![\s.,;!?])[\s.,;!?]+$/u, '')
    .toLowerCase();
  return value ? one('routine', value) : null;
}

// A degree word or a negation before it, or 的 after it, says how the user is, not what they do (我一般很忙,
// 我平时挺忙的, 我平时不太出门).
const DEGREE = /[很挺较特非有太不没是]$/u;

export function routineZh({ s, raw, recurring }: Pick<Reading, 's' | 'raw' | 'recurring'>): Found[] | null {
  const m = recurring ? /^我(?:们)?(?:都|会|就|也|还)?(\p{Script=Han}.*)$/u.exec(s) : null;
  if (!m || DEGREE.test(m[1].charAt(0)) || /的$/u.test(m[1])) return null;
  const value = m[1].replace(/(?<![，。！？、\s])[，。！？、\s]+$/u, '');
  const at = raw.indexOf(value);
  const before = at < 0 ? '' : raw.slice(0, at);
  return value.length >= 2 && !DEGREE.test(before) ? one('routine', value) : null;
}
