/**
 * Reading English clauses: splitting a sentence into clauses that each keep their own subject, taking off
 * lead-ins, telling questions and requests apart, and the value helpers the slot patterns share.
 */
import { saysWhen } from '../relative-dates';
import { type Term, termsOf } from './tagged';

/** Words that place a statement in the present: taken out with the dates before the slot patterns read a clause. */
export const PRESENT_EN = /\b(?:right now|now(?! that\b)|nowadays|these days|lately|currently|at the moment|at present)\b/gi;

const FIRST_PERSON = "(?:i|i'm|i've|i'd|i'll|im|my|we|we're|we've|our)";
const CONNECTOR = '(?:and|but|so|because|although|though|plus|yet|and also|and now|but now|so now|and then)';
// Each split starts where its blanks do ((?<!\s)), and "\s*[,;]?\s+" is spelled so that no two of its
// quantifiers can take the same blanks: either way a run of blanks is read once, not once per blank.
// A dash between spaces joins two clauses in casual writing ("gave up fish too — fully vegetarian now").
const SPLIT = new RegExp(
  `(?<!\\s)(?:\\s*[,;]\\s+|\\s+)${CONNECTOR}\\s+(?=${FIRST_PERSON}\\b)|(?<!\\s)\\s*,\\s*(?=(?:${CONNECTOR}\\s+)?(?:now\\s+)?${FIRST_PERSON}\\b)|(?<!\\s)\\s+[—–]\\s+`,
  'i',
);
const OPENS_WITH_FIRST_PERSON = new RegExp(`^${FIRST_PERSON}\\b`, 'i');

const isVerb = (tags: readonly string[]) => tags.includes('Verb') && !tags.includes('Noun') && !tags.includes('Gerund');

const TAKES = ['Preposition', 'Determiner', 'Noun', 'Pronoun', 'Value'];

/**
 * The first word that is not an adverb is a verb, as compromise reads it in its sentence. A bare form ("work",
 * "beef") must be followed by what a verb takes: "…chicken and beef again" joins two foods, "…and work at Aldi" a clause.
 */
function verbFirst(terms: readonly Term[]): boolean {
  const at = terms.findIndex((t) => !t.tags.includes('Adverb'));
  const first = terms[at];
  if (first === undefined || !isVerb(first.tags)) return false;
  const next = terms[at + 1];
  return !first.tags.includes('Infinitive') || (next !== undefined && TAKES.some((tag) => next.tags.includes(tag)));
}

/** "…, and (just) started at Siemens": a clause that starts with its verb (adverbs before it allowed). */
const startsWithVerb = (clause: string) => verbFirst(termsOf(clause));

/** "I hope to build a family and put a roof over…": a bare verb after "and" shares the "to" or modal before it. */
const MODAL = new Set(['to', 'will', 'would', 'gonna', 'can', 'could', 'should', 'must', 'might', 'may', 'shall']);
function sharesModal(terms: readonly Term[], and: number): boolean {
  const next = terms.slice(and + 1).find((t) => !t.tags.includes('Adverb'));
  return next?.tags.includes('Infinitive') === true && terms.slice(0, and).some((t) => MODAL.has(t.normal));
}

/** A clause split again where "and" is followed by a verb of its own ("I quit my job and started at Bolt"), read in context. */
function splitAtVerbs(part: string): string[] {
  const terms = termsOf(part);
  const cuts = terms.flatMap((term, i) => (term.normal === 'and' && verbFirst(terms.slice(i + 1)) && !sharesModal(terms, i) ? [i] : []));
  const out: string[] = [];
  let from = 0;
  for (const i of cuts) {
    out.push(part.slice(from, terms[i].start).replace(/(?<![\s,])[\s,]+$/u, ''));
    from = terms[i + 1].start;
  }
  out.push(part.slice(from));
  return out.filter(Boolean);
}

function opensWithPastVerb(clause: string): boolean {
  const first = termsOf(clause).find((t) => !t.tags.includes('Adverb'));
  // Sentence-first, compromise may read a past form as an order ("Picked up the keys"): its -ed ending tells.
  const past = first?.tags.includes('PastTense') || (first?.tags.includes('Verb') && /ed$/i.test(first.normal));
  return first !== undefined && past === true && isVerb(first.tags) && !first.tags.includes('Auxiliary');
}

/** Opens with an -ing verb that is no subject, and says no subject after it ("Starting at a vineyard…"; not "Swimming is my sport", "Starting today I'm …"). */
function opensWithGerund(clause: string): boolean {
  if (/\b(?:i|we)\b/i.test(clause)) return false;
  const first = termsOf(clause).find((t) => !t.tags.includes('Adverb'));
  return first?.tags.includes('Gerund') === true && first.tags.includes('Verb') && !first.tags.includes('Noun');
}

/**
 * A few words with no subject, no verb and no name ("Anna from Berlin" is no "I am"; "Our twins, Ines and Jonah, …"
 * has a subject the tagger may miss the verb of): a predicate whose subject is the speaker.
 */
const PREDICATE_WORDS = 6;
function saysWhatSpeakerIs(clause: string): boolean {
  const terms = termsOf(clause);
  const subject = (t: Term) => ['Possessive', 'Pronoun', 'Determiner'].some((tag) => t.tags.includes(tag));
  const name = (t: Term) => t.tags.includes('ProperNoun') || t.tags.includes('Person');
  if (terms.length === 0 || terms.length > PREDICATE_WORDS || subject(terms[0]) || terms.some(name)) return false;
  // After an opening adverb the tagger reads a bare adjective as a verb ("completely vegan"): not a verb said.
  const verb = (t: Term, i: number) =>
    t.tags.includes('Verb') && !(i === 1 && terms[0].tags.includes('Adverb') && t.tags.includes('Infinitive'));
  return !terms.some((t, i) => verb(t, i) || t.tags.includes('QuestionWord'));
}

/** Words with a past verb of their own are no lead-in: "just finished my first week" is the clause's own predicate. */
function hasVerb(words: string): boolean {
  return termsOf(words).some((t) => t.tags.includes('PastTense') && !t.tags.includes('Auxiliary'));
}

export function splitClauses(sentence: string): string[] {
  const out: string[] = [];
  let subject: string | null = null;
  const parts = sentence.split(SPLIT).flatMap((part) => (/\band\b/i.test(part) ? splitAtVerbs(part) : [part]));
  for (const part of parts) {
    let clause = stripLead(part.trim());
    if (!clause) continue;
    // "Got the keys to our new flat in Bath yesterday": a sentence that opens with a past verb dropped its subject, the speaker.
    if (subject === null && opensWithPastVerb(clause)) clause = `I ${clause.charAt(0).toLowerCase()}${clause.slice(1)}`;
    // "Starting at a vineyard in January": one that opens with an -ing verb, what the speaker is doing.
    else if (subject === null && opensWithGerund(clause)) clause = `I am ${clause.charAt(0).toLowerCase()}${clause.slice(1)}`;
    // "Vegan since March", "… — fully vegetarian now": with no subject and no verb, a clause says what the speaker is.
    else if (subject !== '' && saysWhatSpeakerIs(clause)) clause = `I am ${clause.charAt(0).toLowerCase()}${clause.slice(1)}`;
    // Whose clause it is comes from the sentence: "My sister lives in Ohio and works as …" is the sister's.
    if (subject === null) subject = /^(?:i|we)\b/i.test(expandEnglish(clause).replace(PRESENT_EN, '').trim()) ? 'I' : '';
    else if (!OPENS_WITH_FIRST_PERSON.test(clause) && startsWithVerb(clause)) {
      if (!subject) continue;
      clause = `${subject} ${clause}`;
    }
    // "My wife and I moved to Lisbon" is one clause: the split left "My wife" without a predicate.
    const previous = out[out.length - 1];
    if (previous && /^(?:me|(?:my|our) [\w-]+(?: \p{Lu}[\p{L}'-]*)?)$/iu.test(previous) && /^(?:i|my|our)\b/i.test(clause)) {
      out[out.length - 1] = `${previous} and ${clause}`;
      continue;
    }
    out.push(clause);
  }
  return out;
}

const LEADING_PUNCTUATION = /^[\s,，、"'“”‘’()（）-]+/u;
// From where the run starts only, so a text of punctuation is not read again from each of its characters.
const TRAILING_PUNCTUATION = /(?<![\s,，、"'“”‘’()（）.!?。！？])[\s,，、"'“”‘’()（）.!?。！？]+$/u;
const withoutEdgePunctuation = (text: string) => text.replace(LEADING_PUNCTUATION, '').replace(TRAILING_PUNCTUATION, '');
/**
 * "Please remember that I'm vegan", "Don't forget: my birthday is May 3": the fact is what follows. A memory verb as
 * a label ("Update: …", "Save: …") introduces what to remember too, not a request.
 */
const REMEMBER =
  /^(?:(?:please|pls|can you|could you|would you|i want you to|i'd like you to|i need you to|just)\s+)*(?:(?:remember|note|keep in mind|make a note|take note|don['’]?t forget|do not forget)(?:\s+(?:that|this))?(?:\s*[,:])?|(?:update|save|record|store|memori[sz]e|change)\s*:)\s+(?=\S)/i;
/**
 * Words before the subject that say nothing about the user: "well, ", "oh and by the way, ", "Update: ", "Actually ".
 * Not words that make the subject their object ("… told me", "… back in my diet").
 */
const LEAD_IN = new RegExp(`^(?:[^,:;]{1,40}[,:;—–-]\\s*|(?:\\S+\\s+){1,3}?)(?=${FIRST_PERSON}\\b)`, 'i');
const NOT_A_LEAD_IN =
  /\b(?:i|i'm|im|we|my|our|me|you|he|she|they|it|who|that|which|if|when|because|after|before|while|until)\b|\b(?:is|are|was|were|says|said|tells|told|thinks?|knows?|heard|in|on|at|to|of|for|with|from|about|into|without|by|than|like)\s*$|'s\s*$/i;

/** A label closed by a colon ("Quick update on my life: …", "News from our side: …"): no subject or verb of its own. */
const LABEL = /^(?![^:]*\b(?:i|we|you|he|she|they|it|is|are|was|were|says|said|told|tells)\b)[^:]{1,40}:\s+(?=\S)/i;

export function stripLead(clause: string): string {
  let rest = withoutEdgePunctuation(clause).replace(REMEMBER, '').replace(LABEL, '');
  const lead = LEAD_IN.exec(rest)?.[0];
  // A lead closed by punctuation is set apart ("Got news - I'm …"); one that is not, with a past verb, is the predicate.
  const predicate = (words: string) => !/[,:;—–-]\s*$/u.test(words) && hasVerb(words);
  if (lead && !NOT_A_LEAD_IN.test(lead) && !saysWhen(lead, PRESENT_EN) && !predicate(lead)) rest = rest.slice(lead.length);
  return withoutEdgePunctuation(rest).trim();
}

// ---- questions and requests

const QUESTION_START =
  /^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|am|was|were|can|could|would|will|shall|should|have|has|any idea|guess what|remind me)\b/i;
const REQUEST =
  /^(?:please|pls|plz|kindly|help|recommend|suggest|tell|give|show|find|write|explain|list|make|create|translate|summari[sz]e|describe|remind|let's|let|search|look up|check|calculate|compute|generate|draft|define|compare|convert|fix|rewrite|edit|teach|book|order|send|imagine|pretend|forget|delete|remove|erase|wipe|clear|never mind|stop|continue|go on|try|say|repeat|answer|pick|choose|schedule|set|add|update|change|draw|read|save|store|record|memori[sz]e|do not)\b|^i (?:want|need|would like) you\b|^i (?:want|would like|need) to (?:know|ask|see|find out|learn more|understand|check|confirm|talk|chat)\b|^i need (?:help|advice|a|an|some|more|ideas|information)\b|^i am (?:looking for|searching for|wondering|curious)\b|^i (?:was wondering|wonder|have a question)\b/i;

export function asks(clause: string): boolean {
  const s = expandEnglish(clause);
  return QUESTION_START.test(s) || REQUEST.test(s);
}

/**
 * Whether a question asks for several things, by its grammar: a question word before a plural ("which
 * countries", "who are my cousins"), a quantifier over all of a kind ("every", "all"), or two questions
 * joined ("where … and what …").
 */
export function asksForMany(question: string): boolean {
  const terms = termsOf(question);
  const is = (t: Term | undefined, tag: string) => t?.tags.includes(tag) === true;
  return terms.some((t, i) => {
    if (is(t, 'QuestionWord')) {
      // The noun asked about: right after the question word, or after its copula and determiners ("what is your dogs' …").
      let j = i + 1;
      // "who are", "what were": a plural subject follows.
      if (['are', 'were'].includes(terms[j]?.normal ?? '')) return true;
      if (is(terms[j], 'Copula')) j++;
      while (is(terms[j], 'Possessive') || is(terms[j], 'Determiner') || is(terms[j], 'Adjective')) j++;
      if (is(terms[j], 'Plural')) return true;
      return terms
        .slice(i + 1)
        .some((later, k) => is(later, 'QuestionWord') && terms.slice(i + 1, i + 1 + k).some((c) => is(c, 'Conjunction')));
    }
    return is(t, 'Determiner') && (t.normal === 'every' || t.normal === 'all');
  });
}

/** Contractions spelled out so one pattern covers "I'm" / "I am" / "im", "don't" / "do not". */
export function expandEnglish(text: string): string {
  return text
    .replace(/[’‘`´]/g, "'")
    .replace(/\bi'm\b|\bim\b/gi, 'i am')
    .replace(/\bi've\b|\bive\b/gi, 'i have')
    .replace(/\bi'll\b/gi, 'i will')
    .replace(/\bi'd\b/gi, 'i would')
    .replace(/\bwe're\b/gi, 'we are')
    .replace(/\bwe've\b/gi, 'we have')
    .replace(/\b(do|does|did|is|are|was|were|have|has|had|would|could|should)n'?t\b/gi, '$1 not')
    .replace(/\bcan'?t\b|\bcannot\b/gi, 'can not')
    .replace(/\bwon'?t\b/gi, 'will not')
    .replace(/\bain'?t\b/gi, 'am not')
    .replace(/\b(name|birthday|job|address|hometown|diet|plan|goal|dream)'s\b/gi, '$1 is')
    .replace(/\b(have|has) got\b/gi, '$1')
    .replace(/\bgonna\b/gi, 'going to')
    .replace(/\bwanna\b/gi, 'want to')
    .replace(/\s+/g, ' ')
    .trim();
}

const EN_ADVERBS =
  '(?:really|actually|also|still|now|currently|recently|just|finally|already|totally|absolutely|truly|honestly|definitely|kind of|kinda|sort of|mostly|usually|always|originally|basically|officially|pretty much|even|too|then|literally|genuinely|only|mainly|generally|happily|proudly|technically|secretly|newly|personally|obviously|seriously|certainly|both|all|eventually|sometimes|often|very|so)';
const SUBJECT_ADVERBS = new RegExp(`^(i|we|i am|we are|i have|we have|i was|i will|i would)\\s+(?:${EN_ADVERBS}\\s+)+`, 'i');

export function stripSubjectAdverbs(clause: string): string {
  return clause.replace(SUBJECT_ADVERBS, '$1 ');
}

/** Endings that never belong to a value: "Lisbon now", "sushi anymore", "peanuts too". */
const EN_TRAILING =
  /(?<!\s)(?:\s+(?:now|again|anymore|any more|any longer|too|as well|also|though|lol|haha|a lot|so much|very much|really|at all|right now|for now|already|still|for sure|honestly|actually|btw|by the way|in general|generally|mostly|either|recently|full[- ]time|part[- ]time|permanently|for good|myself|later|someday|one day|eventually|these days|nowadays|lately|at the moment|currently))+$/i;

export function cleanEn(value: string): string {
  let v = value
    .replace(/["“”]/g, '')
    .replace(/(?<![\s.!?,;:])[\s.!?,;:]+$/g, '')
    .trim();
  v = v.replace(EN_TRAILING, '').trim();
  v = v.replace(/^(?:a|an|the|some)\s+/i, '');
  return v.replace(/\s+/g, ' ').toLowerCase().slice(0, 80);
}

/** Cut a value at the first clause-like continuation ("Lisbon with my wife", "sushi because …"). */
export function cutEn(value: string, commas: 'cut' | 'keep' | 'keep-before-capital' = 'cut'): string {
  const continuation = value.search(
    /;|\s[-–]\s|(?<!\s)\s+(?:because|since|so that|which|who|where|when|but|although|though|except|unless|if|with my|with our|for (?:work|my|our|the|a|an|a living|\d)|as an?|to be closer|and i|and we|and my)\b/i,
  );
  // "Berlin, Germany" keeps its comma; "Berlin, with my wife" does not. (Case-sensitive on purpose.)
  const comma = commas === 'keep' ? -1 : value.search(commas === 'cut' ? /,/ : /,(?!\s*\p{Lu})/u);
  const cuts = [continuation, comma].filter((at) => at >= 0);
  return cuts.length ? value.slice(0, Math.min(...cuts)) : value;
}

/** "peanuts, shellfish and sesame" → three values. */
export function splitListEn(value: string): string[] {
  return value
    .split(/(?:(?<!\s)\s+)?,\s*(?:and\s+|or\s+)?|(?<!\s)\s+(?:and|or|&|as well as|plus)\s+/i)
    .map((v) => cleanEn(v.replace(/^(?:then|also|plus|maybe|probably|especially|mostly)\s+/i, '')))
    .filter(Boolean);
}

export const PRONOUN_OBJECT =
  /^(?:it|this|that|these|those|you|your|yours|him|her|them|what|how|when|the way|the idea|the fact|i|we|he|she|they|myself|everything|anything|nothing|something|so|doing that|doing this)\b/i;
export const MENTIONS_ASSISTANT = /\b(?:you|your|yours|u|ur|chatgpt|assistant)\b/i;

/** A sentence that opens with a verb in its bare form, no subject before it, tells the listener to do something: "Plan a dinner for me." */
export function opensWithCommand(sentence: string): boolean {
  return termsOf(sentence.trim())[0]?.tags.includes('Imperative') ?? false;
}
