import type { LexicalQuery } from '@/db/search-vector';
import { capTerm, cjkWords, isCjk } from '@/lib/text/search-terms';
import { contentFeatures } from '@/lib/text/text-features';

/**
 * The lexical query of a search: the query text, whose words Postgres reads with the `english`
 * configuration (stemmed, stop words out), and its CJK terms in the index's form (lib/text/search-terms.ts
 * cjkTerms): bigrams, and the words the segmenter finds, a one-character word ("猫") only when it is
 * not a stop character. The query is not bridged to the other language: the stored rows are
 * (lib/text/bilingual.ts indexTerms), so its words as written meet a row of either language.
 */
export function searchKeywords(query: string): LexicalQuery {
  const lower = query.toLowerCase();
  const features = contentFeatures(lower).filter((feature) => isCjk(feature[0]));
  const contentChars = new Set(features.filter((f) => f.length === 1));
  const segmented = cjkWords(lower).filter((w) => w.length >= 2 || contentChars.has(w));
  return { text: query, cjk: [...new Set([...features.filter((f) => f.length >= 2), ...segmented].map(capTerm))] };
}
