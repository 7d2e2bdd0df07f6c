import { workerData } from 'piscina';
import { chineseWordsGlossedAs, latinContentWords } from './bilingual';
import { ANIMALS, nounsOfKinds, PEOPLE } from './kinds';
import { cjkWords } from './search-terms';

/**
 * Words of a kind the rules read facts by, taken from WordNet's hierarchy and CC-CEDICT's glosses instead of lists,
 * built once in the server's process and handed to the rules' threads (lib/memory/rules/bounded.ts), which then need
 * not load either:
 * - health: the nouns WordNet files under a condition or a medicine (asthma, psoriasis, warfarin, statin…), and the
 *   Chinese words CC-CEDICT glosses as one (哮喘, 糖尿病, 青霉素…). The rules read a health fact where the user has or
 *   takes one ("I take warfarin", 我有哮喘), and the offline model takes a question naming one to ask about health.
 * - occupations: the people WordNet files as workers or professionals (a farrier, a hygienist), so "I'm a farrier"
 *   names a job; roles, any noun with such a sense, for what a job is taken up as ("I start as a train conductor").
 * - animals: what WordNet files as one by its most used sense, so "we adopted a greyhound called Biscuit" is a pet.
 */
const HEALTH_KINDS = ['disease', 'illness', 'disorder', 'syndrome', 'medicine'];
const OCCUPATION_KINDS = ['worker', 'professional'];

/**
 * `occupations`: nouns whose most used sense is a job; `roles`: nouns with any sense that is one (a conductor of fares);
 * `animals`: nouns whose most used sense is an animal (a greyhound, a corgi, an axolotl).
 */
export type RuleWords = { health: { english: string[]; chinese: string[] }; occupations: string[]; roles: string[]; animals: string[] };
type RuleWordSets = {
  health: { english: Set<string>; chinese: Set<string> };
  occupations: Set<string>;
  roles: Set<string>;
  animals: Set<string>;
};

let words: RuleWords | undefined;

/** Built once (about 0.5 s once WordNet and the bridge are loaded) and kept; the rules' threads get it from their pool. */
export function ruleWords(): RuleWords {
  if (!words) {
    const health = nounsOfKinds(HEALTH_KINDS);
    words = {
      health: { english: [...health], chinese: chineseWordsGlossedAs(health) },
      occupations: [...nounsOfKinds(OCCUPATION_KINDS, PEOPLE, true)],
      roles: [...nounsOfKinds(OCCUPATION_KINDS, PEOPLE)],
      animals: [...nounsOfKinds(['animal'], ANIMALS, true)],
    };
  }
  return words;
}

let sets: RuleWordSets | undefined;

/** The words as sets, from `given` (a rules thread's, from its pool) or built here. */
function ruleWordSets(given?: RuleWords): RuleWordSets {
  const from = given ?? ruleWords();
  sets ??= {
    health: { english: new Set(from.health.english), chinese: new Set(from.health.chinese) },
    occupations: new Set(from.occupations),
    roles: new Set(from.roles),
    animals: new Set(from.animals),
  };
  return sets;
}

/** The words where the rules run: in a rules thread, those its pool gave it (built once in the process); elsewhere built here. */
export const ruleWordsHere = (): RuleWordSets => ruleWordSets((workerData as { ruleWords?: RuleWords } | undefined)?.ruleWords);

/** Whether a text names a condition or a medicine ("Can I take ibuprofen?", 糖尿病能吃蛋糕吗): by a word, or up to three in a row. */
export function namesHealthWord(text: string): boolean {
  const { english, chinese } = ruleWordSets().health;
  const latin = latinContentWords(text);
  const phrases = latin.flatMap((_, i) => [1, 2, 3].map((n) => latin.slice(i, i + n).join(' ')));
  return phrases.some((phrase) => english.has(phrase)) || cjkWords(text).some((word) => chinese.has(word));
}
