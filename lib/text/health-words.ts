import { chineseWordsGlossedAs, latinContentWords } from './bilingual';
import { nounsOfKinds } from './kinds';
import { cjkWords } from './search-terms';

/**
 * The words that name a condition or a medicine, in both languages: the nouns WordNet files under these
 * kinds (asthma, psoriasis, warfarin, statin…), and the Chinese words CC-CEDICT glosses as one of them
 * (哮喘, 糖尿病, 青霉素…). The rules read a health fact where the user has or takes one ("I take warfarin",
 * 我有哮喘), and the offline model takes a question naming one to ask about the user's health.
 */
const HEALTH_KINDS = ['disease', 'illness', 'disorder', 'syndrome', 'medicine'];

export type HealthWords = { english: string[]; chinese: string[] };

let words: HealthWords | undefined;

/** Built once (about 0.3 s once WordNet and the bridge are loaded) and kept; the rules' threads get it from their pool. */
export function healthWords(): HealthWords {
  if (!words) {
    const english = nounsOfKinds(HEALTH_KINDS);
    words = { english: [...english], chinese: chineseWordsGlossedAs(english) };
  }
  return words;
}

let sets: { english: Set<string>; chinese: Set<string> } | undefined;

/** The words as sets, from `given` (a rules thread's, from its pool) or built here. */
export function healthWordSets(given?: HealthWords): { english: Set<string>; chinese: Set<string> } {
  const from = given ?? healthWords();
  sets ??= { english: new Set(from.english), chinese: new Set(from.chinese) };
  return sets;
}

/** Whether a text names a condition or a medicine ("Can I take ibuprofen?", 糖尿病能吃蛋糕吗): by a word, or up to three in a row. */
export function namesHealthWord(text: string): boolean {
  const { english, chinese } = healthWordSets();
  const latin = latinContentWords(text);
  const phrases = latin.flatMap((_, i) => [1, 2, 3].map((n) => latin.slice(i, i + n).join(' ')));
  return phrases.some((phrase) => english.has(phrase)) || cjkWords(text).some((word) => chinese.has(word));
}
