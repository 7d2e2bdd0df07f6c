/**
 * Home and work read through the name a statement is about, when no pattern claims it: "these days I'm renting a
 * flat in Leeds", "…and just finished my first week at Nokia". compromise finds the names (places and organisations
 * its model knows, and any capitalised word) and the words' base forms; the name is a home when the sentence speaks
 * of dwelling and the name follows "in"/"to", an employer when it speaks of work and the name follows "at"/"for"/"with"
 * or a joining verb. The topic is read from the whole sentence, so "I resigned from my old job and …" lends it.
 */
import type { Found } from '../fact-types';
import { cleanEn } from './read';
import { type Term, termsOf } from './tagged';
import { isPastEn } from './tense';

/** Base forms that make a sentence about where someone lives. */
const DWELLING = new Set(
  'live reside stay settle move relocate base house flat apartment cottage bungalow townhouse loft home place room studio condo neighbourhood neighborhood landlord flatmate roommate housemate'.split(
    ' ',
  ),
);
/** Base forms of a stay that is not a home (a booking, a trip): "I booked a room in Venice" says nothing of where the user lives. */
const TRIP = new Set('book reserve trip holiday vacation visit hotel hostel airbnb tour weekend honeymoon'.split(' '));
/** Base forms that make a sentence about where someone works. */
const WORKING = new Set(
  'work job employer company role position office hire onboard onboarding induction intern internship shift contract resign salary payroll'.split(
    ' ',
  ),
);

const about = (terms: readonly Term[], field: Set<string>) => terms.some((t) => field.has(t.lemma) || field.has(t.normal));
const isName = (t: Term, i: number) =>
  i > 0 && /^\p{Lu}/u.test(t.text) && !t.tags.includes('Pronoun') && !t.tags.includes('Date') && !t.tags.includes('Month');

/** Small words inside a place's name: "Stratford upon Avon", "Rio de Janeiro". */
const NAME_PARTICLE = /^(?:of|de|del|da|la|le|upon|on)$/i;

/** The name after position `i` (several capitalised words, "of"/"de" inside), its value; null when none starts there. */
function nameAt(terms: readonly Term[], i: number): string | null {
  const words: string[] = [];
  for (let j = i; j < terms.length && (isName(terms[j], j) || (words.length > 0 && NAME_PARTICLE.test(terms[j].normal))); j++) {
    words.push(terms[j].text.replace(/(?<![,.;:!?])[,.;:!?]+$/u, ''));
    if (/[,.;:!?]$/u.test(terms[j].text)) break;
  }
  while (words.length && NAME_PARTICLE.test(words[words.length - 1])) words.pop();
  return words.length ? cleanEn(words.join(' ')) : null;
}

const HOME_BEFORE = new Set(['in', 'to', 'into']);
const WORK_BEFORE = new Set(['at', 'for', 'with']);
/** Joining an organisation compromise knows ("I joined Spotify"), or a unit of one ("joined the data team at X"), is work. */
const JOIN = new Set(['join', 'joined', 'joining', 'joins']);
const UNIT = new Set('team department staff firm company startup agency lab crew board'.split(' '));
/** "my first day at Miro", "first shift with Acme": the first stretch of time somewhere is a start there. */
const FIRST_STRETCH = /\bfirst (?:day|days|week|weeks|month|months|shift|shifts|fortnight) (?:at|with)\s*$/i;
/** A phrase before the subject that only says when or after what: "After months of house hunting we've …". */
const SCENE = /^(?:after|before|since|following|despite|thanks to|at last|in the end)\b[^,;]{0,60}?,?\s+(?=(?:i|we)\b)/i;

/** States whose past tense is the past ("I worked at Siemens", "we rented in Porto"); a change in the past holds now ("I joined Bolt"). */
const STATES = new Set('live reside rent lease stay work be have own teach study'.split(' '));

function pastState(clause: string, terms: readonly Term[]): boolean {
  const main = terms.find((t) => t.tags.includes('Verb') && !t.tags.includes('Auxiliary') && !t.tags.includes('Copula'));
  return main !== undefined && STATES.has(main.lemma) && isPastEn(clause);
}

export function namedStateEn(said: string, sentence: string): Found[] | null {
  const clause = said.replace(SCENE, '');
  // The user's own statements only: "our landlord is moving to …" is not the user's home.
  // Tagging costs milliseconds: a clause with no capitalised word after its first has no name to read.
  if (!/\s\p{Lu}/u.test(clause)) return null;
  const terms = termsOf(clause);
  // "Onboarding at Capgemini has been intense": a clause whose subject is the dwelling or the work itself is the user's too.
  const subjectIsTopic = DWELLING.has(terms[0]?.lemma ?? '') || WORKING.has(terms[0]?.lemma ?? '');
  if (!/^(?:i|we)\b/i.test(clause) && !/\bmy first\b/i.test(clause) && !subjectIsTopic) return null;
  // Read again in the present by the tense reading, and kept as the past.
  if (pastState(clause, terms)) return null;
  const context = termsOf(sentence);
  const home = about(context, DWELLING) && !about(terms, TRIP);
  const joins = terms.some((t) => JOIN.has(t.normal));
  const work = about(context, WORKING) || (joins && terms.some((t) => UNIT.has(t.lemma)));
  if (!home && !work && !joins && !FIRST_STRETCH.test(clause.replace(/\s\p{Lu}.*$/u, ' '))) return null;
  for (let i = 1; i < terms.length; i++) {
    const before = terms[i - 1].normal;
    if (!isName(terms[i], i) || isName(terms[i - 1], i - 1)) continue;
    const name = nameAt(terms, i);
    if (!name) continue;
    if (home && HOME_BEFORE.has(before) && !terms[i].tags.includes('Organization')) return [{ slot: 'location', value: name }];
    const started = FIRST_STRETCH.test(
      `${terms
        .slice(0, i)
        .map((t) => t.text)
        .join(' ')} `,
    );
    const employer =
      started || (work && (WORK_BEFORE.has(before) || JOIN.has(before))) || (JOIN.has(before) && terms[i].tags.includes('Organization'));
    if (employer && !terms[i].tags.includes('Place')) return [{ slot: 'work', value: name }];
  }
  return null;
}
