import * as chrono from 'chrono-node';
import { contentFeatures } from '@/lib/text/text-features';

/**
 * A question that joins two things ("what does the cousin who moved to Tromsø do?", "住在大理的表哥
 * 做什么工作？") names one through the other: its clauses are searched each on their own, and the
 * names the best matches bring (the cousin's name, which the question never says) are searched
 * next. Pure text work; recall_episodes runs the searches.
 */
export type QueryParts = {
  /** The question's clauses, when it has more than one; else empty. */
  clauses: string[];
  /** Whether the question names something through a relative clause, so a second hop through names can help. */
  joins: boolean;
};

// Relative and subordinate words that open a clause inside a question (English), and 的 between two phrases (Chinese).
// A run of blanks is tried from where it starts only, and two characters on each side of 的 are as good as more.
const EN_CLAUSE = /(?<!\s)\s+(?=\b(?:who|whom|whose|which|that|where|when|after|before|while|because)\b)|,\s*|(?<!\s)\s+and\s+/iu;
const ZH_CLAUSE = /(?<=\p{Script=Han}{2})的(?=\p{Script=Han}{2})|[，、；]/u;
const RELATIVE = /\S\s+(?:who|whom|whose|which|that|where)\b|(?<=\p{Script=Han}{2})的(?=\p{Script=Han}{2})/iu;

/**
 * The most clauses a question is searched by, besides the whole: each is a search of its own in the
 * turn's one statement. A question has a few; a long message of repeated phrases would otherwise make
 * hundreds, which the embedded database runs on its one backend while everyone else waits.
 */
export const MAX_CLAUSES = 6;

export function decomposeQuery(query: string): QueryParts {
  const clauses = query
    .split(EN_CLAUSE)
    .flatMap((part) => part.split(ZH_CLAUSE))
    .map((part) => part.trim())
    .filter((part) => part.length >= 2);
  const byKey = new Map(clauses.map((clause) => [clause.toLowerCase(), clause] as const));
  const distinct = [...byKey.values()].slice(0, MAX_CLAUSES);
  return { clauses: clauses.length > 1 ? distinct : [], joins: RELATIVE.test(query) };
}

/**
 * Names in a found text that the question does not say: capitalised words that are not stop words
 * ("The", "My") nor dates ("March", "Monday"), the things a second hop searches for. A word opening
 * a sentence passes too ("Desmond, my old flatmate…"): a few ordinary words come along, which only
 * add a weak search.
 */
// A name is a few capitalised words; a longer run is cut into names of at most four.
const NAME_RUN = /\b\p{Lu}[\p{Ll}\p{M}]+(?:\s\p{Lu}[\p{Ll}\p{M}]+){0,3}/gu;

export function namesNotIn(text: string, query: string): string[] {
  const asked = query.toLowerCase();
  const names = new Set<string>();
  for (const [run] of text.matchAll(NAME_RUN)) {
    // A sentence may open with a capitalised stop word before the name ("Does Ottilie…").
    const parts = run.split(/\s/u);
    while (parts.length > 0 && contentFeatures(parts[0]).length === 0) parts.shift();
    const name = parts.join(' ');
    if (name === '' || /^(User|Assistant)$/u.test(name) || asked.includes(name.toLowerCase())) continue;
    if (chrono.parse(name).length === 0) names.add(name);
  }
  return [...names];
}

// Modal verbs and hedges (English, Chinese): they frame a question as a guess ("Would she likely…",
// "他可能会…") and say nothing of what it is about, yet Postgres keeps them as lexemes ("likely" is
// read as "like"), so they would match every exchange that says "I like" or "could".
const HEDGE = /\b(?:would|could|might|should|likely|unlikely|probably|possibly|perhaps|maybe)\b|可能|大概|也许|或许/giu;

/**
 * The question without the words that frame it as a guess, for its search by words: what it asks
 * about is left. A question of nothing but such words is kept as it is.
 */
export function withoutHedges(query: string): string {
  const rest = query
    .replace(HEDGE, ' ')
    .replace(/\s{2,}/gu, ' ')
    .trim();
  return /[\p{L}\p{N}]/u.test(rest) ? rest : query;
}
