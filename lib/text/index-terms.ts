import { chineseBridgeWords, englishBridgeWords, warmBridge } from './bilingual';
import { kindWords, warmKinds } from './kinds';
import { cjkTerms } from './search-terms';

/**
 * The terms a stored text is indexed by besides its own words (db/search-vector.ts): its CJK terms,
 * the Chinese words of its English, the English words of its Chinese, and what its nouns are kinds of
 * (lib/text/kinds.ts). db/ files the CJK ones under the `simple` configuration and the English ones
 * under `english`, where an English query's words meet them stemmed.
 */
export function indexTerms(text: string): string[] {
  const lower = text.toLowerCase();
  const glosses = englishBridgeWords(lower);
  return [...new Set([...cjkTerms(lower), ...chineseBridgeWords(lower), ...glosses, ...kindWords(text, glosses)])];
}

/**
 * Loads the language data now (the bilingual bridge, the segmenter, WordNet): a server calls it before its
 * first request, so that the first text indexed does not hold up the event loop for the seconds it takes.
 */
export function warmLanguageData(): void {
  warmBridge();
  warmKinds();
}
