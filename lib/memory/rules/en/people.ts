/**
 * English: the user's name, family and pets. A name is a proper noun said of the user: the user as the one named
 * (me / I / my name) with a verb of calling or knowing, and the value written as a name (capitalised, not at the
 * start of the sentence, not shaped like an adjective or a participle).
 */

import { ruleWordsHere } from '@/lib/text/rule-words';
import { type FactSlot, type Found, one, type Reading } from '../fact-types';
import { isCommonWordOnly } from './lexicon';
import { EN_NUMBERS } from './numbers';
import { cleanEn } from './read';

const NAME_WORDS = "\\p{Lu}[\\p{L}'’.-]*(?:\\s+\\p{Lu}[\\p{L}'’.-]*){0,2}";
/** "… call me Jim", "… know me as Bobby", "… nicknamed me Red": someone names the user. */
const NAMED_ME = new RegExp(
  `\\b(?:call|calls|called|calling|know|knows|known|name|names|named|nickname|nicknames|nicknamed|refer to|refers to|address|addresses)\\s+me\\s+(?:as\\s+|by\\s+)?(${NAME_WORDS})(?=\\s*(?:for short|here|around here|instead|please|now|,|$))`,
  'iu',
);
/** "I'm called Bob", "I go by Sam", "I'm known as Ziggy", "I answer to Mo": the user names themselves ("I called Anna" is a phone call). */
const I_AM_NAMED = new RegExp(
  `^i (?:(?:am|have been|was) (?:\\w+ )?(?:called|named|known as)|(?:\\w+ )?(?:go by|going by|answer to))(?: the name)?\\s+(${NAME_WORDS})\\b`,
  'iu',
);
/** "My (first / nick / full) name is …", "The name is …": a name stated outright, capital or not. */
// After blanks, what follows starts with a non-blank (or, after blanks only, is the last blank, as
// `\s+(.+)$` read it): no two quantifiers can take the same blanks. So in the patterns below.
const NAME_IS = /^(?:my (?:\w+ )?name is|(?:the )?name is|my name,? is)\s+(not\s+)?(\S.*|[^\S\n\r\u2028\u2029])$/i;
/** Shapes of adjectives and participles, which "I'm …" is far more often followed by than a name: Tired, Exhausted, Starving. */
const ADJECTIVE_SHAPE = /(?:ed|ing|ful|ous|ive|less|able|ible|ish|ese|ical|ary)$/i;
const NOT_A_NAME = /^(?:not|a|an|the|what|sure|that|this|it|him|her|you|me|maybe|if|when|so|too|here|there|back)$/i;

function cleanName(value: string): string | null {
  const cut = value.split(/(?<!\s)\s*(?:[,(]|\b(?:but|and|by the way|btw|though|for short|please|from|if|instead|by|at|in|i)\b)/i)[0];
  const name = cleanEn(cut);
  if (!name || name.split(' ').length > 4 || NOT_A_NAME.test(name)) return null;
  return /^[\p{L}][\p{L}\p{M}'.\- ]*$/u.test(name) ? name : null;
}

export function nameEn({ s }: Reading): Found[] | null {
  const named = NAMED_ME.exec(s) ?? I_AM_NAMED.exec(s);
  if (named) {
    const name = cleanName(named[1]);
    return name && /^\p{Lu}/u.test(named[1]) ? one('name', name) : null;
  }
  const stated = NAME_IS.exec(s);
  // "My name isn't Bob" (expanded to "is not Bob") denies a name instead of giving one.
  const name = stated && cleanName(stated[2]);
  return name ? one('name', name, Boolean(stated[1])) : null;
}

/**
 * "I'm Anna" names the user only when the sentence introduces them: it opens with a greeting, or more follows
 * ("I'm Kenji, a teacher from Osaka", "I'm Anna from Berlin"). "I'm Tired." does neither, and "Hi, I'm
 * Hungry" is a common word, not a name (the English dictionary says which words are only that).
 */
export function introduction(s: string, greeted: boolean): { name: string; tail: string } | null {
  const m =
    /^i am (\p{Lu}[\p{L}'-]+(?: \p{Lu}[\p{L}'-]+){0,2})(?:\s*,(?:\s*(\S.*)|\s*[^\S\n\r\u2028\u2029])|\s+(?:and\s+)?((?:from|an?) .+))?$/u.exec(
      s,
    );
  const tail = (m?.[2] ?? m?.[3] ?? '').trim();
  const notAName = (word: string) => ADJECTIVE_SHAPE.test(word) || NATIONALITY.test(word) || isCommonWordOnly(word);
  if (!m || (!greeted && !tail) || m[1].split(' ').some(notAName)) return null;
  return { name: m[1].toLowerCase(), tail };
}

/** Nationalities and faiths not shaped like adjectives: "Hi, I'm German" is not a name. */
const NATIONALITY =
  /^(?:american|german|french|indian|italian|canadian|australian|brazilian|russian|norwegian|thai|greek|dutch|swiss|czech|mexican|korean|african|european|asian|latino|latina|christian|catholic|jewish|muslim|buddhist|hindu|vegan|vegetarian)$/i;

// ---- family and pets

export const ENTITIES_EN: Record<string, string> = {
  mother: 'mother',
  mom: 'mother',
  mum: 'mother',
  mommy: 'mother',
  mummy: 'mother',
  mama: 'mother',
  momma: 'mother',
  father: 'father',
  dad: 'father',
  daddy: 'father',
  papa: 'father',
  parents: 'parents',
  folks: 'parents',
  sister: 'sister',
  sisters: 'sister',
  sis: 'sister',
  brother: 'brother',
  brothers: 'brother',
  bro: 'brother',
  sibling: 'sibling',
  siblings: 'sibling',
  wife: 'wife',
  husband: 'husband',
  hubby: 'husband',
  spouse: 'spouse',
  partner: 'partner',
  girlfriend: 'girlfriend',
  boyfriend: 'boyfriend',
  fiance: 'fiance',
  fiancé: 'fiance',
  fiancee: 'fiance',
  fiancée: 'fiance',
  son: 'son',
  sons: 'son',
  daughter: 'daughter',
  daughters: 'daughter',
  kid: 'child',
  kids: 'child',
  child: 'child',
  children: 'child',
  baby: 'baby',
  toddler: 'child',
  twins: 'twins',
  triplets: 'triplets',
  // An age word standing for the noun it goes with ("my eldest, Marisol", "our youngest"): one of the user's children.
  eldest: 'child',
  oldest: 'child',
  youngest: 'child',
  grandmother: 'grandmother',
  grandma: 'grandmother',
  granny: 'grandmother',
  nana: 'grandmother',
  grandfather: 'grandfather',
  grandpa: 'grandfather',
  granddad: 'grandfather',
  grandad: 'grandfather',
  grandparents: 'grandparents',
  grandson: 'grandson',
  granddaughter: 'granddaughter',
  grandchild: 'grandchild',
  grandchildren: 'grandchild',
  grandkids: 'grandchild',
  aunt: 'aunt',
  auntie: 'aunt',
  uncle: 'uncle',
  cousin: 'cousin',
  cousins: 'cousin',
  niece: 'niece',
  nieces: 'niece',
  nephew: 'nephew',
  nephews: 'nephew',
  stepmother: 'stepmother',
  stepmom: 'stepmother',
  stepfather: 'stepfather',
  stepdad: 'stepfather',
  stepson: 'stepson',
  stepdaughter: 'stepdaughter',
  stepbrother: 'stepbrother',
  stepsister: 'stepsister',
  'half-brother': 'brother',
  'half-sister': 'sister',
  'mother-in-law': 'mother-in-law',
  'father-in-law': 'father-in-law',
  'sister-in-law': 'sister-in-law',
  'brother-in-law': 'brother-in-law',
  'in-laws': 'in-laws',
  // pets
  dog: 'dog',
  dogs: 'dog',
  puppy: 'dog',
  puppies: 'dog',
  pup: 'dog',
  doggo: 'dog',
  cat: 'cat',
  cats: 'cat',
  kitten: 'cat',
  kittens: 'cat',
  kitty: 'cat',
  hamster: 'hamster',
  hamsters: 'hamster',
  rabbit: 'rabbit',
  rabbits: 'rabbit',
  bunny: 'rabbit',
  bunnies: 'rabbit',
  parrot: 'parrot',
  parrots: 'parrot',
  bird: 'bird',
  birds: 'bird',
  budgie: 'budgie',
  budgies: 'budgie',
  parakeet: 'budgie',
  canary: 'canary',
  fish: 'fish',
  goldfish: 'goldfish',
  turtle: 'turtle',
  turtles: 'turtle',
  tortoise: 'tortoise',
  snake: 'snake',
  snakes: 'snake',
  lizard: 'lizard',
  gecko: 'gecko',
  iguana: 'iguana',
  horse: 'horse',
  horses: 'horse',
  pony: 'pony',
  'guinea pig': 'guinea pig',
  'guinea pigs': 'guinea pig',
  ferret: 'ferret',
  ferrets: 'ferret',
  hedgehog: 'hedgehog',
  chinchilla: 'chinchilla',
  rat: 'rat',
  rats: 'rat',
  mouse: 'mouse',
  mice: 'mouse',
  gerbil: 'gerbil',
  gerbils: 'gerbil',
  chicken: 'chicken',
  chickens: 'chicken',
  hens: 'chicken',
  goat: 'goat',
  goats: 'goat',
  cockatiel: 'cockatiel',
  axolotl: 'axolotl',
  pet: 'pet',
  pets: 'pet',
};
const PET_WORDS = new Set([
  'dog',
  'cat',
  'hamster',
  'rabbit',
  'parrot',
  'bird',
  'budgie',
  'canary',
  'fish',
  'goldfish',
  'turtle',
  'tortoise',
  'snake',
  'lizard',
  'gecko',
  'iguana',
  'horse',
  'pony',
  'guinea pig',
  'ferret',
  'hedgehog',
  'chinchilla',
  'rat',
  'mouse',
  'gerbil',
  'chicken',
  'goat',
  'cockatiel',
  'axolotl',
  'pet',
]);
const escapeRe = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const ENTITY_EN = Object.keys(ENTITIES_EN)
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join('|');
export const ENTITY_MODIFIER =
  '(?:(?:older|younger|little|big|baby|elder|eldest|oldest|youngest|twin|new|pet|sweet|dear|late|only|rescue|rescued|old|lovely|beloved|cute|adorable|grown-up|adult|teenage|step|best|two|three|four|black|white|grey|gray|orange|ginger|tabby|fluffy)\\s+)*';
const enNumber = (word: string) => EN_NUMBERS[word.toLowerCase()] ?? Number(word);
const COUNTS: Record<string, number> = { ...EN_NUMBERS, some: 0, any: 0, no: 0, my: 0 };
/**
 * Regexes here are case-insensitive, where \p{Lu} matches any letter; a name is told apart afterwards
 * by its capital: "my dog Rex died" names the dog, "my dog just died" does not.
 */
export function leadingName(text: string): { name?: string; rest: string } {
  const m = /^(\p{Lu}[\p{L}'-]*)(?:\s+((?:\S.*)?))?$/u.exec(text);
  if (!m || /^(?:I|He|She|It|This|That|They|We|You)$/.test(m[1])) return { rest: text };
  return { name: m[1], rest: m[2] ?? '' };
}

/** The names a text opens with: "Ada and Max, …" → Ada, Max; any first word after "called" / "named" (`called`). */
function namesOpening(text: string, called: boolean): string[] {
  const m = /^([\p{L}'-]+)(?:(?:\s*,\s*|\s+)and\s+(\p{Lu}[\p{L}'-]*))?/u.exec(text);
  if (!m || !(called || (/^\p{Lu}/u.test(m[1]) && m[1] !== 'I'))) return [];
  return m[2] ? [m[1], m[2]] : [m[1]];
}

/** A word for one of the user's people ("sister", "landlord"), not for a pet. */
export const isPersonWord = (word: string) => ENTITIES_EN[word] !== undefined && !PET_WORDS.has(ENTITIES_EN[word]);

export function entityValue(word: string, name?: string, count?: number): Found {
  const kind = ENTITIES_EN[word.toLowerCase()];
  const slot: FactSlot = PET_WORDS.has(kind) ? 'pet' : 'family';
  const detail = name ? name.toLowerCase() : count && count > 1 ? String(count) : '';
  return { slot, value: detail ? `${kind}:${detail}` : kind };
}

export function familyPetEn({ s }: Reading): Found[] | null {
  // "my sister Anna …", "my dog is called Rex", "my mom's name is Mary", "my kids are 5 and 7"
  let m = new RegExp(
    `^(?:my|our) ${ENTITY_MODIFIER}(?:[\\p{L}-]+\\s+){0,2}?(${ENTITY_EN})\\b('s name is| is (?:an? (?:[\\p{L}-]+\\s+){0,2}?)?(?:called|named)| named| called)?(?:\\s*,)?\\s*((?:\\S.*)?)$`,
    'iu',
  ).exec(s);
  if (m?.[3]) {
    // The name follows "is called" / "named", or is simply the capitalised word after the noun; a plural may have
    // several ("my twins, Ada and Max, …").
    const names = namesOpening(m[3], Boolean(m[2]));
    // What the rest says is the relative's life, not the user's: the fact keeps "my cousin (Ana)" only.
    const said = `${s.slice(0, s.length - m[3].length).trim()}${names.length ? ` ${names.join(' and ')}` : ''}`;
    const entity = m[1];
    return (names.length > 0 ? names : [undefined]).map((name) => ({ ...entityValue(entity, name), said }));
  }
  // "I have two kids", "we adopted a cat named Luna", "I have a sister named Anna and a brother named Tom"
  m =
    /^(?:i|we) (?:have|got|own|adopted|rescued|took in|bought|just got|have adopted|have rescued|welcomed|are expecting|am expecting|am having|are having|live with|take care of|look after) (.+)$/i.exec(
      s,
    );
  if (m) {
    // An apposition names what came just before it: "a second cat, a tabby called Pixel".
    const listed = m[1].replace(
      new RegExp(`\\b(${ENTITY_EN})\\s*,\\s*(?:a|an)\\s+(?:[\\p{L}-]+\\s+){1,2}?(named|called)\\s+`, 'giu'),
      '$1 $2 ',
    );
    const item = new RegExp(
      `^(?:(a couple of|a|an|one|two|three|four|five|six|seven|eight|nine|ten|\\d+|some|any|no|my)\\s+)?(?:[\\p{L}-]+\\s+){0,2}?(${ENTITY_EN})\\b(?:(?:\\s*,)?\\s*(?:named|called|whose name is)\\s+([\\p{L}'-]+))?`,
      'iu',
    );
    const found = listed
      .split(/(?:(?<!\s)\s+)?,\s*(?:and\s+)?|(?<!\s)\s+and\s+/i)
      .map((part) => item.exec(part.trim()))
      .filter((x): x is RegExpExecArray => x !== null)
      .map((x) => {
        const found = entityValue(x[2], x[3], x[1] ? (COUNTS[x[1].toLowerCase()] ?? Number(x[1])) : 1);
        // "I have no siblings" denies them.
        return x[1]?.toLowerCase() === 'no' ? { ...found, negated: true } : found;
      });
    if (found.length) return found;
    const animal = animalKept(m[1], /\b(?:adopted|rescued|took in)\b/i.test(s));
    if (animal) return [animal];
  }
  m = new RegExp(`^(\\S+) is (?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})$`, 'iu').exec(s);
  const named = m && leadingName(m[1]).name;
  if (m && named) return [entityValue(m[2], named)];
  m = /^i am (?:a )?(?:proud |single |new |first-time )?(?:mom|mother|mum|dad|father|parent)(?: of (\w+))?/i.exec(s);
  if (m) return one('family', m[1] && enNumber(m[1]) > 1 ? `child:${enNumber(m[1])}` : 'child');
  m = /^i am (?:a )?(?:proud )?(?:grandmother|grandfather|grandma|grandpa|grandparent)\b/i.exec(s);
  if (m) return one('family', 'grandchild');
  m = /^i (?:am|got|have gotten|just got) (married|engaged)(?: to (.+))?$/i.exec(s);
  if (m) {
    const partner = m[2] && cleanName(m[2]);
    if (m[1].toLowerCase() === 'married') return one('family', partner ? `spouse:${partner}` : 'married');
    return one('family', partner ? `fiance:${partner}` : 'engaged');
  }
  m = /^i (?:am|got) (single|divorced|widowed|separated)$/i.exec(s);
  return m ? one('family', m[1].toLowerCase()) : null;
}

/**
 * "We adopted a greyhound called Biscuit", "I got a tarantula named Mo": an animal WordNet knows (by its most used
 * sense) kept by the user is a pet, its kind as said. Named, or adopted or rescued: "I got a bug" is no pet.
 */
function animalKept(object: string, adopted: boolean): Found | null {
  const words = object.split(/\s+/).map((w) => w.replace(/[^\p{L}'-]/gu, ''));
  if (!/^(?:a|an|one)$/i.test(words[0] ?? '')) return null;
  const { animals } = ruleWordsHere();
  const at = words.findIndex((w, i) => i > 0 && i < 4 && animals.has(w.toLowerCase()));
  if (at < 0) return null;
  const name = /^(?:named|called)$/i.test(words[at + 1] ?? '') && /^\p{Lu}/u.test(words[at + 2] ?? '') ? words[at + 2] : undefined;
  if (!name && !adopted) return null;
  const kind = words[at].toLowerCase();
  return { slot: 'pet', value: name ? `${kind}:${name.toLowerCase()}` : kind };
}

const PET_LOSS =
  /^(?:(?:just|recently|sadly|finally|unfortunately|tragically)\s+)?(?:died|passed away|passed|ran away|is gone|got lost|went missing|was put down|had to be put down|is no longer with us)\b/i;

export function petLossEn(s: string): Found[] | null {
  let m = new RegExp(`^(?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})\\s+(\\S.*|[^\\S\\n\\r\\u2028\\u2029])$`, 'iu').exec(s);
  if (m && PET_WORDS.has(ENTITIES_EN[m[1].toLowerCase()])) {
    const { name, rest } = leadingName(m[2]);
    if (PET_LOSS.test(rest)) return [{ ...entityValue(m[1], name), negated: true }];
  }
  m = new RegExp(
    `^(?:i|we) (?:gave away|rehomed|gave up|had to give up|had to rehome|lost|sold) (?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})\\b\\s*((?:\\S.*)?)$`,
    'iu',
  ).exec(s);
  if (m && PET_WORDS.has(ENTITIES_EN[m[1].toLowerCase()])) return [{ ...entityValue(m[1], leadingName(m[2]).name), negated: true }];
  return null;
}
