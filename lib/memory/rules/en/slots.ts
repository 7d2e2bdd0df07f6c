/**
 * English slot patterns: one clause → the facts the user states about themselves. A change of state is read
 * through its negation ("no longer", "anymore": the positive fact, ended); diet also through what the user eats.
 */

import { type Feeling, feelingVerbAt } from '@/lib/text/feeling-verbs';
import { ruleWordsHere } from '@/lib/text/rule-words';
import { type Found, firstFound, one, type Reading } from '../fact-types';
import { healthEn } from '../health';
import { statedDate } from '../relative-dates';
import { routineEn } from '../routine';
import { namedStateEn } from './named-state';
import { ENTITIES_EN, ENTITY_EN, ENTITY_MODIFIER, entityValue, familyPetEn, introduction, leadingName, nameEn, petLossEn } from './people';
import { cleanEn, cutEn, MENTIONS_ASSISTANT, PRONOUN_OBJECT, splitListEn, stripLead, stripSubjectAdverbs } from './read';

type EnContext = Reading & { greeted: boolean };

export function matchEn(clause: string, reading: Reading, greeted: boolean): Found[] {
  // A lead-in before a date ("Update: as of May my home is …") is one once the date is out.
  const stripped = stripLead(reading.s);
  const found = matchStatement(stripSubjectAdverbs(stripped), reading, greeted);
  // What the fact says starts at its subject: "Left Acme on Friday, and on Monday I joined …" is not about Acme.
  const subject = clause.search(/\b(?:i|we)\b/i);
  if (reading.s.trim().length - stripped.length <= 3 || subject <= 0) return found;
  return found.map((f) => ({ ...f, said: f.said ?? clause.slice(subject) }));
}

function matchStatement(s: string, reading: Reading, greeted: boolean): Found[] {
  const ctx: EnContext = { ...reading, s, raw: stripSubjectAdverbs(reading.raw), greeted };
  const special = dietByFoodEn(s, ctx.raw) ?? workEndEn(s) ?? petLossEn(s) ?? cancelledPlanEn(s) ?? cantStandEn(s) ?? movedAwayEn(s);
  if (special) return special;

  const change = EN_CHANGE.test(s);
  if (!change && !EN_NEGATION.test(s)) return positiveEn(ctx) ?? namedStateEn(s, reading.sentence) ?? [];
  // "I don't like X" is a dislike, "I'm not into X" too; "I don't like X anymore" ends a like.
  const dislike = change ? null : dislikeEn(ctx);
  if (dislike || !/^(?:i|we)\b/i.test(s)) return dislike ?? [];
  const positive = stripSubjectAdverbs(removeNegationEn(s));
  const found = positiveEn({ ...ctx, s: positive, raw: positive });
  return found?.map((f) => ({ ...f, negated: true })) ?? [];
}

const EN_CHANGE = /\b(?:any ?more|any longer|no longer)\b|^i (?:stopped|quit|gave up|have stopped|have quit|have given up) being\b/i;
const EN_NEGATION = /^(?:i|we)(?: \S+)? (?:not|no longer|never)\b/i;

function removeNegationEn(s: string): string {
  return s
    .replace(/\b(?:any ?more|any longer)\b/gi, '')
    .replace(/\bno longer\b/i, '')
    .replace(/^i (?:stopped|quit|gave up|have stopped|have quit|have given up) being\b/i, 'i am')
    .replace(/\b(?:do|does|did) not (?:really )?/i, '')
    .replace(/\b(have|has) not got\b/i, '$1')
    .replace(/\b(am|is|are|was|were|have|has|will|would) not (?:really |exactly |actually )?/i, '$1 ')
    .replace(/\bnever\b/i, '')
    .replace(/\bnot\b/i, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const MATCHERS_EN: ((ctx: EnContext) => Found[] | null)[] = [
  nameEn,
  dateEn,
  dislikeEn,
  allergyEn,
  healthEn,
  dietEn,
  companionEn,
  familyPetEn,
  locationEn,
  workEn,
  planEn,
  likeEn,
  introductionEn,
  routineEn,
];

function positiveEn(ctx: EnContext): Found[] | null {
  return firstFound(MATCHERS_EN, ctx);
}

/** "My wife and I moved to Lisbon": a family member, and the clause restated with "we". */
function companionEn(ctx: EnContext): Found[] | null {
  const m =
    new RegExp(`^(?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})\\s+(?:(\\S+)\\s+)?and i (.+)$`, 'iu').exec(ctx.s) ??
    new RegExp(`^me and (?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})()\\s+(\\S.*|[^\\S\\n\\r\\u2028\\u2029])$`, 'iu').exec(ctx.s);
  if (!m) return null;
  const { name, rest } = m[2] ? { name: leadingName(m[2]).name, rest: m[3] } : leadingName(m[3]);
  const we = `we ${rest}`;
  const more = locationEn({ ...ctx, s: we }) ?? planEn({ ...ctx, s: we }) ?? [];
  return [entityValue(m[1], name), ...more];
}

/** "Hi, I'm Anna", "I'm Kenji, a teacher from Osaka": a name, and what the rest says (a job, a hometown). */
function introductionEn(ctx: EnContext): Found[] | null {
  const intro = introduction(ctx.s, ctx.greeted);
  if (!intro) return null;
  const found = one('name', intro.name);
  // The role is the words before the first "from" (the tail is trimmed), read word by word.
  const from = /^(?:(\S+(?:[^\S\n\r\u2028\u2029]+(?!from )\S+)*)\s+)?from (.+)$/i.exec(intro.tail);
  const role = from ? from[1] : intro.tail;
  if (role) found.push(...(workEn({ ...ctx, s: `i am ${role}` }) ?? positiveEn({ ...ctx, s: `i am ${role}`, greeted: false }) ?? []));
  if (from) found.push({ slot: 'location', value: cleanEn(cutEn(from[2], 'keep-before-capital')) });
  return found;
}

// ---- dates (birthdays, anniversaries): matched on the clause before time phrases are taken out

const OCCASIONS: Record<string, string> = {
  birthday: 'birthday',
  bday: 'birthday',
  'b-day': 'birthday',
  'birth date': 'birthday',
  'date of birth': 'birthday',
  'wedding anniversary': 'anniversary',
  anniversary: 'anniversary',
  'name day': 'name day',
  'due date': 'due date',
};
const OCCASION = '(birthday|bday|b-day|birth date|date of birth|wedding anniversary|anniversary|name day|due date)';

function dateEn({ raw }: EnContext): Found[] | null {
  let m = new RegExp(
    `^(?:my|our) (?:(${ENTITY_EN})(?:'s|s'|s) )?${OCCASION}(?: is| falls on| will be| was|:)?\\s*(\\S.*|[^\\S\\n\\r\\u2028\\u2029])$`,
    'i',
  ).exec(raw);
  if (m) {
    const occasion = OCCASIONS[m[2].toLowerCase()];
    const date = statedDate(m[3]);
    if (!date) return null;
    return one('date', `${m[1] ? `${ENTITIES_EN[m[1].toLowerCase()]}'s ` : ''}${occasion}:${date}`);
  }
  m = /^(.+?) is (?:my|our) (birthday|anniversary|wedding anniversary)$/i.exec(raw);
  if (m) {
    const date = statedDate(m[1]);
    return date ? one('date', `${OCCASIONS[m[2].toLowerCase()]}:${date}`) : null;
  }
  m = /^i was born (?:on )?(.+)$/i.exec(raw);
  if (m) {
    const date = statedDate(m[1]);
    return date ? one('date', `birthday:${date}`) : null;
  }
  m = /^(?:we|i) (?:got married|were married|married|met|started dating) on (.+)$/i.exec(raw);
  const date = m && statedDate(m[1]);
  return date ? one('date', `anniversary:${date}`) : null;
}

// ---- likes and dislikes

const LIKE_VERBS =
  '(?:dig|am into|am big into|am a (?:big |huge |massive |great |real )?fan of|am crazy about|am mad about|am obsessed with|am passionate about|am fond of|am keen on|am addicted to|am interested in|am in love with|have a soft spot for|have a thing for|have (?:loved|liked|enjoyed|adored)|have (?:grown|come|started|begun) to (?:love|like|enjoy)|have started (?:liking|loving|enjoying)|started (?:liking|loving|enjoying)|started to (?:like|love|enjoy)|have fallen in love with|fell in love with|live for|can not get enough of|can not live without)';
const DISLIKE_VERBS =
  '(?:can not stand|can not bear|can not tolerate|am not (?:really |that |very |much of )?(?:a )?(?:big |huge |great )?fan of|am not (?:really |that )?into|am not (?:really |that |very )?keen on|am not (?:really |that |very )?fond of|am not (?:really |that |very )?interested in|do not (?:really )?(?:like|enjoy|love|care for)|really do not like|am sick of|am afraid of|am scared of|am terrified of|fear|have (?:always )?hated|have never liked|never (?:really )?liked|am not a fan of)';
const LIKE_RE = new RegExp(`^(?:i|we) ${LIKE_VERBS} (.+)$`, 'i');
const DISLIKE_RE = new RegExp(`^(?:i|we) ${DISLIKE_VERBS} (.+)$`, 'i');

function objectValues(object: string): string[] {
  if (PRONOUN_OBJECT.test(object) || MENTIONS_ASSISTANT.test(object)) return [];
  // "I prefer tea over coffee": the preference is the first thing.
  const cut = cutEn(object.replace(/^to\s+/i, ''), 'keep').split(/(?<!\s)\s+(?:over|rather than|instead of|more than)\s+/i)[0];
  return splitListEn(cut).filter((v) => !PRONOUN_OBJECT.test(v));
}

function likeEn({ s }: EnContext): Found[] | null {
  let m =
    /^(?:my|our) (?:absolute |all-time |all time |personal |very )?(?:favou?rite|fave|fav)(?: ([\w\s-]+?))? (?:is|are|has to be|would be|of all time is) (.+)$/i.exec(
      s,
    );
  if (m) return objectValues(m[2]).map((value) => ({ slot: 'like', value }));
  m = /^(?:my|our) least favou?rite ([\w\s-]+?) (?:is|are) (.+)$/i.exec(s);
  if (m) return objectValues(m[2]).map((value) => ({ slot: 'dislike', value }));
  m = /^(.+?) (?:is|are) (?:my|our) (?:absolute |all-time )?(?:favou?rite|fave|fav)\b/i.exec(s);
  if (m) return objectValues(m[1]).map((value) => ({ slot: 'like', value }));
  m =
    /^i am (?:a |an )?(?:big |huge |massive |great |real |die-hard |diehard |total |avid |passionate )?(.+?) (?:fan|lover|enthusiast|buff|nerd|geek|addict|fanatic|junkie)$/i.exec(
      s,
    );
  if (m && !/^(?:not|no)\b/i.test(m[1])) return objectValues(m[1]).map((value) => ({ slot: 'like', value }));
  m = /^my (?:hobby|hobbies|passion|passions|interests?|pastimes?) (?:is|are|include|includes) (.+)$/i.exec(s);
  m ??= LIKE_RE.exec(s);
  // A switch of habit names what the user has now: "I've switched over to rooibos".
  m ??= /^i (?:have )?(?:switched|changed|gone|went|moved)(?: over| back)? to (.+)$/i.exec(s);
  const object = m?.[1] ?? felt(s, 'like');
  return object ? objectValues(object).map((value) => ({ slot: 'like', value })) : null;
}

function dislikeEn({ s }: EnContext): Found[] | null {
  const object = DISLIKE_RE.exec(s)?.[1] ?? felt(s, 'dislike');
  return object ? objectValues(object).map((value) => ({ slot: 'dislike', value })) : null;
}

/** "I cherish X", "we abhor X": what follows a verb WordNet files as one of the feeling (lib/text/feeling-verbs.ts). */
function felt(s: string, feeling: Feeling): string | null {
  const words = s.split(/\s+/);
  if (!/^(?:i|we)$/i.test(words[0])) return null;
  const verb = feelingVerbAt(words.slice(1).map((w) => w.toLowerCase()));
  return verb?.feeling === feeling && verb.length + 1 < words.length ? words.slice(verb.length + 1).join(' ') : null;
}

/** "I can't stand X anymore" still dislikes X: the "anymore" must not turn it into an ended fact. */
function cantStandEn(s: string): Found[] | null {
  const m = /^i (?:really )?(?:can not stand|can not bear|can not tolerate) (.+)$/i.exec(s);
  return m ? objectValues(m[1]).map((value) => ({ slot: 'dislike', value })) : null;
}

// ---- allergies

function allergyEn({ s }: EnContext): Found[] | null {
  const list = (v: string) => splitListEn(cutEn(v, 'keep')).map((value) => ({ slot: 'allergy' as const, value }));
  let m =
    /^i am (?:(?:very|severely|highly|deathly|slightly|mildly|a bit|a little|really|super|extremely|so|quite)\s+)*(?:allergic|intolerant|hypersensitive) to (.+)$/i.exec(
      s,
    ) ??
    /^i (?:have|got|suffer from) (?:an? |some |severe |mild |serious |bad |terrible |food )*(?:allergy|allergies|intolerance|intolerances) to (.+)$/i.exec(
      s,
    ) ??
    /^my (?:food )?allerg(?:y|ies) (?:is|are|include|includes) (.+)$/i.exec(s);
  if (m) return list(m[1]);
  m =
    /^i (?:have developed|have|got|suffer from|developed) (?:an? |some |severe |mild |serious |bad |terrible )*(.+?) (?:allergy|allergies|intolerance)$/i.exec(
      s,
    );
  if (m) return list(m[1]);
  m = /^i am (lactose|gluten|fructose|histamine|wheat|dairy) intolerant$/i.exec(s);
  if (m) return one('allergy', m[1].toLowerCase());
  if (/^i (?:am (?:a )?|have )(?:celiac|coeliac)(?: disease)?$/i.test(s)) return one('allergy', 'gluten');
  m = /^(.+?) (?:give|gives|gave) me (?:hives|a rash|an allergic reaction|allergies)$/i.exec(s);
  if (m && !PRONOUN_OBJECT.test(m[1])) return list(m[1]);
  m = /^i can not (?:eat|have|touch) (.+?) because (?:of )?(?:my |an? |i am )?allerg/i.exec(s);
  return m ? list(m[1]) : null;
}

// ---- diet

const DIET_ALT =
  'vegetarian|veggie|vegan|plant[- ]based|pescatarian|pescetarian|pescitarian|pesco-vegetarian|lacto(?:-ovo)?-vegetarian|ovo-vegetarian|flexitarian|keto|ketogenic|paleo|carnivore|omnivore|gluten[- ]free|dairy[- ]free|halal|kosher|low[- ]carb|raw vegan|fruitarian';

function dietWord(word: string): string {
  const w = word.toLowerCase().replace(/\s+/g, ' ');
  if (/vegetarian|veggie/.test(w)) return 'vegetarian';
  if (/vegan|plant[- ]based/.test(w)) return 'vegan';
  if (/pesc/.test(w)) return 'pescatarian';
  if (/keto/.test(w)) return 'keto';
  if (/gluten/.test(w)) return 'gluten-free';
  if (/dairy/.test(w)) return 'dairy-free';
  if (/low[- ]carb/.test(w)) return 'low-carb';
  return w;
}

function dietEn({ s }: EnContext): Found[] | null {
  let m = new RegExp(
    `^i am (?:(?:a|an|strict|strictly|fully|full|mostly|pretty much|basically|completely|totally|100%|now|on a|following a|going)\\s+)*(${DIET_ALT})(?:\\s+diet)?(?=$|\\s*,|\\s+(?:now|again|these days|nowadays|for|because|since|mostly|at the moment|most of the time|when|and|but|so))`,
    'i',
  ).exec(s);
  m ??= new RegExp(
    `^i (?:went|have gone|go|became|have become|turned|switched to|converted to|eat|have been eating|follow|am following|keep|started|have started|stick to|am on|have been on|do|am doing|tried|am trying|try|have been) (?:a |an |the |mostly |strictly |fully )?(${DIET_ALT})\\b`,
    'i',
  ).exec(s);
  m ??= new RegExp(
    `^i (?:switched|changed|went|moved|have switched|have gone) from (?:being )?(?:a |an )?(?:${DIET_ALT}) to (?:being )?(?:a |an )?(${DIET_ALT})\\b`,
    'i',
  ).exec(s);
  if (m) return one('diet', dietWord(m[1]));
  m =
    /^i am (?:on|following|doing|trying) (?:a |an |the )?([\w\s-]+?) diet$/i.exec(s) ??
    /^my diet is (?:mostly |strictly |fully )?(.+)$/i.exec(s);
  return m ? one('diet', dietWord(cleanEn(m[1]))) : null;
}

/** Kinds of food a diet allows; what the user eats now, or takes back, tells the diet. */
const FOOD_KINDS: [RegExp, string][] = [
  [/\b(?:meat|beef|pork|chicken|lamb|steak|bacon|poultry|turkey|ham)\b/i, 'omnivore'],
  [/\b(?:fish|seafood|salmon|tuna|shellfish|shrimps?|prawns?)\b/i, 'pescatarian'],
  [/\b(?:dairy|milk|cheese|butter|yogh?urt|eggs?)\b/i, 'vegetarian'],
];
const EATS =
  /^(?:i|we) (?:have |had |am |are )?(?:been )?(?:(?:started|begun|began|start|gone back to|went back to|back to) )?(?:eat|eats|eating|having|have|added|add|adding|include|including|reintroduced|allowing myself)\b/i;
/** Eating as a habit or a change, not one meal ("I had pizza for lunch"). */
const HABIT = /\b(?:again|back|now|these days|nowadays|started|start|began|begun|added|reintroduced|regularly|every)\b/i;
const ONE_MEAL = /\b(?:breakfast|lunch|dinner|brunch|supper|snack|meal)\b/i;
const AVOIDS =
  /^(?:i|we) (?:do not|never|no longer|will not|try not to|(?:have )?(?:stopped|quit|gave up|given up|cut out)|avoid|am avoiding) (?:eat(?:ing)? |hav(?:e|ing) |consum(?:e|ing) |touch(?:ing)? )?(?:any )?/i;

/** A kind of food (the subject) back in the user's meals: "chicken is back on my plate", "seafood's back in my diet". */
const FOOD_BACK = /^(.{1,40}?)\s+\S+\s+back\b.*\b(?:me|my)\b/i;

/** Diet said through food: "I don't eat meat" (vegetarian), "fish is back on my plate" / "I eat fish again" (pescatarian). */
function dietByFoodEn(s: string, raw: string): Found[] | null {
  if (AVOIDS.test(s)) {
    const food = s.replace(AVOIDS, '');
    if (/\b(?:animal products|anything from animals)\b/i.test(food) || (/\bmeat\b/i.test(food) && /\b(?:dairy|eggs)\b/i.test(food)))
      return one('diet', 'vegan');
    return /^(?:red )?meat\b/i.test(food) ? one('diet', 'vegetarian') : null;
  }
  const eaten = EATS.test(s) && HABIT.test(raw) ? s : FOOD_BACK.exec(s.replace(/'s\b/, ' is'))?.[1];
  if (!eaten || ONE_MEAL.test(s)) return null;
  const kind = FOOD_KINDS.find(([food]) => food.test(eaten));
  return kind ? one('diet', kind[1]) : null;
}

// ---- location

const LIVE_EN =
  '(?:live|am living|are living|have lived|have been living|been living|reside|am residing|have resided|am staying|stay|am based|are based|am located|am settled|have settled|settled|am now living)';

function placeValue(text: string): string | null {
  const cut = cutEn(text, 'keep-before-capital');
  // A place written as a name ends with its last capitalised word: "Tucson a while back" → "Tucson", "Rio de Janeiro" whole.
  const named = /^\p{Lu}/u.test(cut) ? /^.*\p{Lu}[\p{L}'.-]*/u.exec(cut)![0] : cut;
  const value = cleanEn(named).replace(/^(?:the city of|the town of)\s+/, '');
  if (!value || /^(?:here|there|it|this|that|a house|an apartment|a flat|a van|a house with .*|my car|the same place)$/.test(value))
    return null;
  return value.split(' ').length <= 6 ? value : null;
}

function locationEn({ s }: EnContext): Found[] | null {
  const m =
    new RegExp(`^(?:i|we) ${LIVE_EN} (?:in|at|on) (.+)$`, 'i').exec(s) ??
    /^(?:i|we) (?:have |had )?(?:moved|relocated|emigrated|immigrated|migrated)(?: (?:back|over|out|house|home))?(?: from .+?)? to (.+)$/i.exec(
      s,
    ) ??
    /^i am (?:originally )?from (.+)$/i.exec(s) ??
    /^i (?:come|came|hail) (?:originally )?from (.+)$/i.exec(s) ??
    /^i (?:was (?:born|raised|brought up)(?: and (?:raised|bred|brought up))?|grew up|spent my (?:childhood|youth|teens|early years)) in (.+)$/i.exec(
      s,
    ) ??
    /^my (?:home ?town|home town|home|house|apartment|flat|place|address|home address|city) is (?:in |at |on )?(.+)$/i.exec(s) ??
    /^(?:i|we) (?:have )?(?:bought|rented|own) (?:a |an )?(?:house|flat|apartment|condo|place|home) in (.+)$/i.exec(s) ??
    /^i am (?:a |an )?(?:resident|native|local) of (.+)$/i.exec(s);
  const place = m ? placeValue(m[1]) : homeNamedEn(s);
  return place ? one('location', place) : null;
}

/** "home is Lyon", "…, so our new home base is Tallinn": a home named by its place's name. */
function homeNamedEn(s: string): string | null {
  const m = /^(?:[^,:;]{1,40}[,:;]\s*(?:so |and )?)?(?:(?:my|our) )?(?:[a-z]+ )?home(?: [a-z]+)? is (?:now )?(.+)$/i.exec(s);
  return m && /^\p{Lu}/u.test(m[1]) ? placeValue(m[1]) : null;
}

/** "I moved out of Berlin" (and nowhere named): the old home ends. */
function movedAwayEn(s: string): Found[] | null {
  const m = /^(?:i|we) (?:have )?(?:moved|relocated) (?:away )?(?:out of|away from|from) (.+)$/i.exec(s);
  if (!m || /\bto\b/i.test(m[1])) return null;
  const place = placeValue(m[1]);
  return place ? one('location', place, true) : null;
}

// ---- work

// The jobs WordNet files elsewhere than under workers and professionals (an engineer, an author, a manager are just people there).
const PROFESSIONS = new Set(
  `accountant actor actress administrator analyst architect artist author baker banker barber barista biologist bookkeeper builder butcher cashier ceo cfo cto coo chemist cleaner coach consultant contractor cook coordinator counselor counsellor courier dancer designer detective developer dietitian director driver economist engineer entrepreneur executive farmer firefighter founder co-founder cofounder gardener geologist guard historian janitor journalist judge manager marketer mathematician model musician nanny painter photographer physicist physiotherapist poet policeman policewoman politician postdoc producer programmer psychologist publisher recruiter researcher reporter scientist secretary singer specialist statistician student supervisor surveyor tailor therapist trader translator writer youtuber streamer optometrist nutritionist carer principal dean auditor illustrator animator blogger influencer vlogger podcaster realtor broker agent investor pastor priest rabbi imam monk nun mayor senator`.split(
    /\s+/,
  ),
);

/** `as`: the role a job is taken up as ("…as a conductor"), where any sense of the noun that is a job counts. */
function isProfession(phrase: string, as: 'said' | 'role' = 'said'): boolean {
  const head = phrase
    .toLowerCase()
    .split(/(?<!\s)\s+(?:at|for|in|with|of|from)\s+/)[0]
    .trim();
  const last = head.split(/\s+/).pop() ?? '';
  const words = ruleWordsHere()[as === 'role' ? 'roles' : 'occupations'];
  return PROFESSIONS.has(last) || words.has(head) || words.has(last) || /(?:ologist|ician|iatrist|ographer)$/.test(last);
}

const WORK_STATES: [RegExp, string][] = [
  [/^(?:retired|a retiree|a pensioner)$/i, 'retired'],
  [/^(?:unemployed|jobless|out of work|between jobs|looking for (?:a )?(?:job|work))$/i, 'unemployed'],
  [/^(?:self-employed|self employed)$/i, 'self-employed'],
  [/^(?:a )?(?:freelancer|freelancing|freelance)$/i, 'freelancer'],
  [/^a (?:stay-at-home|stay at home) (?:mom|dad|parent|mother|father)$|^a (?:homemaker|housewife|househusband)$/i, 'homemaker'],
];
const BORING_JOB =
  /^(?:boring|fun|great|hard|stressful|ok|okay|fine|good|bad|tiring|demanding|busy|exhausting|interesting|awesome|terrible|amazing|difficult|easy|tough|intense|rewarding|well paid|underpaid)$/i;

function workEn({ s }: EnContext): Found[] | null {
  let m =
    /^i (?:work|am working|have worked|have been working|been working) (?:full[- ]time |part[- ]time |remotely |remote )?(?:at|for|in|with|on) (.+)$/i.exec(
      s,
    ) ??
    /^i (?:work|am working) as (?:an? )?(.+)$/i.exec(s) ??
    /^i am (?:employed|hired|working) (?:at|by|for) (.+)$/i.exec(s) ??
    /^i (?:got|landed|started|accepted|took|have|just got|have got|started a) (?:a |an |my |the )?(?:new )?(?:job|position|role|internship|gig) (?:at|with|as|for) (?:an? )?(.+)$/i.exec(
      s,
    ) ??
    /^i (?:started|have started) (?:working|work) (?:at|for) (.+)$/i.exec(s) ??
    roleTakenEn(s) ??
    // A named employer the user starts at ("I begin at Quarry Labs on Thursday"), or does the work of ("I do the books for Acme").
    namedEmployerEn(s);
  if (m) {
    const value = cleanEn(cutEn(m[1]));
    return value ? one('work', value) : null;
  }
  m = /^my (?:job|profession|occupation|role|position|title|job title|day job|work) is (?:as )?(?:an? )?(.+)$/i.exec(s);
  if (m) {
    const value = cleanEn(cutEn(m[1]));
    return value && !BORING_JOB.test(value) ? one('work', value) : null;
  }
  m = /^i (?:am|have been|became|have become) (.+)$/i.exec(s);
  if (m) {
    const state = WORK_STATES.find(([pattern]) => pattern.test(m![1].trim()));
    if (state) return one('work', state[1]);
    const phrase = m[1].replace(/^(?:an?|the)\s+/i, '');
    if (/^(?:an?|the)\s/i.test(m[1]) && isProfession(phrase)) return one('work', cleanEn(cutEn(phrase)));
  }
  if (/^i (?:retired|have retired)$/i.test(s)) return one('work', 'retired');
  m = /^i (?:study|am studying|am a student|am majoring in .+?) (?:at|in) (.+)$/i.exec(s) ?? /^i am studying .+? at (.+)$/i.exec(s);
  if (m) return one('work', `student at ${cleanEn(cutEn(m[1]))}`);
  m = /^i teach (.+)$/i.exec(s);
  return m ? one('work', `teach ${cleanEn(cutEn(m[1]))}`) : null;
}

/** "I begin training as a train conductor", "I start an apprenticeship as an electrician": a job taken up, said by its role. */
function roleTakenEn(s: string): RegExpExecArray | null {
  const m =
    /^i (?:am |will |have )?(?:re-?)?(?:start(?:ed|ing)?|begin(?:ning)?|began|join(?:ed|ing)?|train(?:ed|ing)?|qualif(?:y|ied|ying)|return(?:ed|ing)?)(?: [\w'-]+){0,5}? as (?:an? )?(.+)$/i.exec(
      s,
    );
  return m && isProfession(m[1], 'role') ? m : null;
}

/** A named employer the user starts at ("I begin at Quarry Labs on Thursday"), or does the work of ("I do the books for Acme"). */
function namedEmployerEn(s: string): RegExpExecArray | null {
  const m =
    /^i (?:start|begin|started|began|am starting|will start|will begin)(?: work| working| my new job| a new job)? (?:at|with) (.+)$/i.exec(
      s,
    ) ?? /^i (?:do|handle|manage|run|keep|write|design|build|edit|lead) (?:the|all the|their) [\w\s-]{1,30}? (?:for|at) (.+)$/i.exec(s);
  return m && /^\p{Lu}/u.test(m[1]) ? m : null;
}

/** "I quit my job", "I got laid off from Acme": the job ends (a negated work fact; no value = whatever job it was). */
function workEndEn(s: string): Found[] | null {
  let m =
    /^i (?:quit|left|lost|resigned from|got fired from|was fired from|got laid off from|was laid off from|got let go from|have quit|have left|have lost) (?:my |the )?(?:job|position|role|work)(?: (?:at|with|as|in) (?:an? )?(.+))?$/i.exec(
      s,
    );
  m ??= /^i (?:got|was|have been|just got) (?:fired|laid off|let go|sacked|made redundant)(?: (?:from|at|by) (.+))?$/i.exec(s);
  m ??= /^i (?:resigned|quit)(?: from (.+))?$/i.exec(s);
  // "my old job", "the position": whatever job it was, not a value.
  const value = m?.[1] ? cleanEn(cutEn(m[1])) : '';
  return m
    ? one('work', /^(?:my |the |this |that )?(?:[\w-]+ )?(?:job|position|role|work|company|employer)$/.test(value) ? '' : value, true)
    : null;
}

// ---- plans

const PLAN_TRIVIAL =
  /^(?:sleep|bed|go|leave|be honest|ask|try|need|say|tell|give|take a (?:shower|nap|break|look)|check|think|eat|have (?:lunch|dinner|breakfast)|start with|stop|continue|explain|answer|reply|respond|do (?:that|this|it)|make (?:it|this|that|sure)|be (?:right )?back|log off|head out|rest|relax|nap|shower|get going|get some sleep|be fine|be ok|be okay|need to|have to|miss|regret|cry|die|lose it|go now|go to (?:bed|sleep))\b/i;
const PLAN_VERBS =
  /^(?:go|visit|travel|fly|move|start|begin|attend|take|run|get married|retire|graduate|learn|study|buy|open|launch|quit|switch|change|apply|climb|hike|drive|spend|see|meet|celebrate|return|join|adopt|build|write|finish|have|get|be)\b/i;
const REQUESTY =
  /^(?:know|ask|understand|see (?:if|whether|what|how)|check|talk|chat|say|tell|find out|hear|make sure|be sure|clarify|confirm|learn more about|discuss|get (?:a|an|some) (?:recipe|recommendation|idea|list|summary))\b/i;
const DETERMINER = /^(?:the|a|an|my|our|his|her|their)\b/i;

function planValue(object: string, isGoing: boolean): string | null {
  let v = cleanEn(cutEn(object));
  if (!v || PLAN_TRIVIAL.test(v) || MENTIONS_ASSISTANT.test(v) || PRONOUN_OBJECT.test(v)) return null;
  if (isGoing) {
    const destination = /^\p{Lu}/u.test(object.trim()) || DETERMINER.test(object.trim());
    if (destination) v = `go to ${v}`;
  }
  return v;
}

function planEn({ s, future }: EnContext): Found[] | null {
  let m = /^(?:i|we) (?:am|are) (?:going|heading|off) (?:to|back to) (.+)$/i.exec(s);
  if (m) {
    const v = planValue(m[1], true);
    return v ? one('plan', v) : null;
  }
  m =
    /^(?:i|we) (?:am|are) (flying|driving|travell?ing|moving|relocating|returning|going back|coming back|taking a trip|emigrating) (?:to|back to) (.+)$/i.exec(
      s,
    );
  if (m) {
    const v = planValue(m[2], false);
    return v ? one('plan', `${m[1].toLowerCase()} to ${v}`) : null;
  }
  m =
    /^(?:i|we) (?:am|are) (?:planning|hoping|intending|aiming|preparing|about|thinking of|thinking about|considering|looking forward to|excited to|excited about|scheduled|due|set|supposed|getting ready) (?:to |on |for )?(.+)$/i.exec(
      s,
    ) ??
    /^(?:i|we) (?:plan|intend|hope|aim|expect|have planned|have decided|decided|am determined|are determined) to (.+)$/i.exec(s) ??
    /^my (?:plan|plans|goal|dream|resolution|new year's resolution|new year resolution|next trip|next vacation|next holiday|aim)(?: for [\w\s]+?)? (?:is|are) (?:to )?(.+)$/i.exec(
      s,
    );
  if (m) {
    const v = planValue(m[1], false);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:want|would love|would like|wish|really want|am dying) to (.+)$/i.exec(s);
  if (m && !REQUESTY.test(m[1])) {
    const v = planValue(m[1], false);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:will|shall|am going to have to|need to|have to|must|should) (?:be )?(.+)$/i.exec(s);
  if (m && (future || (/^i will\b/i.test(s) && PLAN_VERBS.test(m[1])))) {
    const v = planValue(m[1], false);
    return v ? one('plan', v) : null;
  }
  m =
    /^(?:i|we) (?:have|got) (?:an? |my |the |our )?((?:upcoming |big |important |job |doctor's |dentist |doctor |dental |final |first |school )*(?:trip|vacation|holiday|appointment|interview|exam|exams|wedding|flight|conference|surgery|operation|date|concert|match|game|race|marathon|test|presentation|deadline|visit|party)\b.*)$/i.exec(
      s,
    );
  if (m) {
    const v = planValue(m[1].replace(/^upcoming\s+/i, ''), false);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:am|are) ([a-z]+ing) (.+)$/i.exec(s);
  if (m && future && !/^(?:feeling|thinking|wondering|looking|trying|asking|going|hoping|being)$/i.test(m[1])) {
    const v = planValue(`${m[1]} ${m[2]}`, false);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:am|are) getting (married|divorced)$/i.exec(s);
  return m && future ? one('plan', `get ${m[1].toLowerCase()}`) : null;
}

/** "I cancelled my trip to Japan": the plan is off. */
function cancelledPlanEn(s: string): Found[] | null {
  const m =
    /^(?:i|we) (?:cancelled|canceled|have cancelled|have canceled|called off|postponed indefinitely|scrapped|gave up on|dropped) (?:my |our |the )?(?:plans? (?:to |for )?)?(.+)$/i.exec(
      s,
    );
  const v = m && cleanEn(cutEn(m[1]));
  return v ? one('plan', v, true) : null;
}
