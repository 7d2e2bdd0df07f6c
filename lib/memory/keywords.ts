import { contentFeatures } from '@/lib/llm/text-features';
import { capTerm, cjkWords } from '@/lib/text/search-terms';

/**
 * Lexical search terms of a query, in the lexical index's normal form (lib/text/search-terms.ts), longest
 * first: its content words (stemmed), CJK bigrams, and the CJK words the segmenter finds, a
 * one-character word ("猫") only when it is not a stop character. Each is cut as stored terms are
 * (capTerm), so a very long word meets itself.
 */
export function searchKeywords(query: string): string[] {
  const features = contentFeatures(query);
  const contentChars = new Set(features.filter((f) => f.length === 1));
  const segmented = cjkWords(query.toLowerCase()).filter((w) => w.length >= 2 || contentChars.has(w));
  return [...new Set([...features.filter((f) => f.length >= 2), ...segmented].map(capTerm))].sort((a, b) => b.length - a.length);
}
