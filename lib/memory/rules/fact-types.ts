/**
 * Shared types and value helpers for the offline, rule-based fact memory (mem0's
 * extract → reconcile loop, with regular expressions instead of an LLM).
 */
import type { FactSlot } from '@/lib/shared/fact-kinds';
import { contentFeatures } from '@/lib/text/text-features';

// The kinds of fact are data (lib/shared/fact-kinds.ts); what fits none stays findable in the conversation's episodes.
export { FACT_SLOTS, type FactSlot, KEYED_SLOTS, SINGLE_VALUED_SLOTS } from '@/lib/shared/fact-kinds';

export type FactCandidate = {
  slot: FactSlot;
  /** The user's own clause, trimmed, first person, as they said it: "I'm pescatarian now", "我叫张三", "I moved to Lisbon". */
  text: string;
  /** The normalised value used to compare facts of a slot: "pescatarian", "张三", "lisbon", "peanuts", "sister:anna". Lower-case for Latin script. */
  value: string;
  /** true for a statement that ENDS something: "I'm no longer vegetarian", "I don't have a dog anymore", "我不再吃素了". */
  negated?: boolean;
  /** ISO date (YYYY-MM-DD) when the statement says when it became true ("since 2019", "last week" relative to now); else undefined. */
  validFrom?: string;
};

export type ExistingFact = { id: string; slot: FactSlot; text: string; value: string };

export type FactDecision =
  | { event: 'ADD'; candidate: FactCandidate }
  | { event: 'UPDATE'; factId: string; candidate: FactCandidate } // the old fact is superseded by the candidate
  | { event: 'DELETE'; factId: string; candidate: FactCandidate } // the old fact stops being true, nothing replaces it
  | { event: 'NONE'; factId: string; candidate: FactCandidate }; // already known

export type ForgetRequest = { all: boolean; slots: FactSlot[]; terms: string[] };

export const HAN = /\p{Script=Han}/u;

/** Text is handled as Chinese when its first letter is Han: "我的猫叫 Luna" is Chinese, "My cat is called 咪咪" English. */
export function isChinese(text: string): boolean {
  const first = /\p{L}/u.exec(text);
  return first !== null && HAN.test(first[0]);
}

const LEADING_FILLER = /^(?:a|an|the|my|our|some|any)\s+/;

/** Comparable form of a value: lower-case, punctuation-free, articles dropped, naive singular ("peanuts" → "peanut"). */
export function normaliseValue(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(LEADING_FILLER, '')
    .split(' ')
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word))
    .join(' ');
}

/** "sister:anna" → ["sister", "anna"]; "pescatarian" → ["pescatarian", ""]. */
export function splitKey(value: string): [string, string] {
  const at = value.indexOf(':');
  return at < 0 ? [value, ''] : [value.slice(0, at), value.slice(at + 1)];
}

/** Whole-word (Latin) or substring (CJK) containment, so "berlin" matches "berlin, germany" and "寿司" matches "吃寿司". */
function contains(longer: string, shorter: string): boolean {
  if (!shorter) return false;
  if (HAN.test(shorter)) return shorter.length >= 2 && longer.includes(shorter);
  return ` ${longer} `.includes(` ${shorter} `);
}

/** Do two values of the same slot name the same thing? Equal after normalising, or one contains the other. */
export function valuesMatch(a: string, b: string): boolean {
  const x = normaliseValue(a);
  const y = normaliseValue(b);
  if (!x || !y) return false;
  return x === y || contains(x, y) || contains(y, x);
}

/**
 * Share of content features two texts have in common. `max` divides by the larger set (near-identical wording);
 * `min` by the smaller one (one text says everything the other says).
 */
export function featureOverlap(a: string, b: string, by: 'max' | 'min'): number {
  const x = new Set(contentFeatures(a));
  const y = new Set(contentFeatures(b));
  if (!x.size || !y.size) return 0;
  let shared = 0;
  for (const feature of x) if (y.has(feature)) shared++;
  return shared / (by === 'max' ? Math.max(x.size, y.size) : Math.min(x.size, y.size));
}

/** A fact a slot pattern found in a clause, before the clause text and dates are attached. */
/** `said`: the words that state it, when less than the clause ("my cousin", not where the cousin moved). */
export type Found = { slot: FactSlot; value: string; negated?: boolean; said?: string };

/**
 * A clause as a language's slot patterns read it: `s` without its date phrases, `raw` with them; `future` when a date
 * lies ahead; `recurring` when it says the thing comes round again ("every Sunday", 每周二); `sentence` the whole
 * sentence it comes from (what the sentence is about lends the clause its topic).
 */
export type Reading = { s: string; raw: string; future: boolean; recurring?: boolean; sentence: string };

/** What the shared extraction loop needs from each language (lib/memory/rules/en, lib/memory/rules/zh). */
export type Language = {
  /** The clauses of a sentence, each with its own subject, and lead-ins ("well, ", "remember that ") taken off. */
  clauses(sentence: string): string[];
  /** A question or a request to the assistant: never a fact. */
  asks(clause: string): boolean;
  /** Contractions spelled out etc., before dates are looked for. */
  normalise(clause: string): string;
  /** Present-time words ("these days", 现在), global: they say when, not what, and are read like dates. */
  present: RegExp;
  /** Whether the clause says where the user comes from ("I grew up in", 老家在): past, whatever its tense. */
  origin(reading: Reading): boolean;
  /** A clause whose tense or aspect places it in the past, restated in the present for the slot patterns; else null. */
  pastAsPresent(reading: Reading): string | null;
  /** The facts the user states about themselves in one clause; `greeted` when the sentence opens with a greeting. */
  match(clause: string, reading: Reading, greeted: boolean): Found[];
};

export const one = (slot: FactSlot, value: string, negated = false): Found[] => [{ slot, value, ...(negated ? { negated } : {}) }];

/** What the first matcher that finds anything finds, in the order given (a language's slots, most specific first). */
export function firstFound<C>(matchers: ReadonlyArray<(context: C) => Found[] | null>, context: C): Found[] | null {
  for (const matcher of matchers) {
    const found = matcher(context);
    if (found?.length) return found;
  }
  return null;
}
