import { contentFeatures } from '@/lib/llm/text-features';

/** Lexical search terms of a query: its content words and CJK bigrams, longest first. */
export function searchKeywords(query: string): string[] {
  return [...new Set(contentFeatures(query))].filter((k) => k.length >= 2).sort((a, b) => b.length - a.length);
}
