/**
 * Offline reconciliation (mem0's ADD / UPDATE / DELETE / NONE step without an LLM), one rule for every slot:
 * a statement is ABOUT something and SAYS something about it. About the same thing as an active fact, a candidate
 * says the same (NONE) or something new, which ends the older fact (UPDATE); about something else, it is ADDed.
 * What a statement is about: for name, home, job and diet, the slot (one at a time); for family, pets and dates,
 * the key and the individual named; for likes, dislikes, allergies and plans, the thing named (like or dislike is
 * what is said about it), or for a choice what it chooses among.
 */
import { contentFeatures, properNames } from '@/lib/text/text-features';
import { readClause } from './fact-extract';
import type { ExistingFact, FactCandidate, FactDecision } from './fact-types';
import { featureOverlap, KEYED_SLOTS, normaliseValue, SINGLE_VALUED_SLOTS, splitKey, valuesMatch } from './fact-types';

/** Near-identical wording of two values or two frames. */
const SAME_STATEMENT = 0.8;

/** `similar` = the user's ACTIVE facts that look related (same slot or similar wording), found by the caller. */
export function decideFactUpdate(candidate: FactCandidate, similar: ExistingFact[]): FactDecision[] {
  if (candidate.negated) {
    // Something stopped being true. With nothing on record to end, there is nothing to do: storing
    // "not vegetarian" as an active fact would make a later "I'm vegetarian" look already known.
    return endedFacts(
      candidate,
      similar.filter((fact) => fact.slot === candidate.slot),
    ).map((fact) => ({ event: 'DELETE', factId: fact.id, candidate }));
  }
  if (candidate.slot === 'past') return pastUpdate(candidate, similar);
  // Likes and dislikes are one slot of opinions: the attitude is what is said about the thing.
  const opinion = (slot: string) => (slot === 'dislike' ? 'like' : slot);
  const related = similar
    .filter((fact) => opinion(fact.slot) === opinion(candidate.slot))
    .map((fact) => ({ fact, relation: relate(candidate, fact) }));
  const known = related.find((r) => r.relation === 'same');
  if (known) return [{ event: 'NONE', factId: known.fact.id, candidate }];
  const changed = related.filter((r) => r.relation === 'changed');
  return changed.length ? changed.map(({ fact }) => ({ event: 'UPDATE', factId: fact.id, candidate })) : [{ event: 'ADD', candidate }];
}

/** About the same thing, saying the same ('same') or something new ('changed'); about another thing: null. */
function relate(candidate: FactCandidate, fact: ExistingFact): 'same' | 'changed' | null {
  if (KEYED_SLOTS.has(candidate.slot)) return relateKeyed(candidate.value, fact.value);
  const [a, b] = [candidate.value, fact.value];
  if (valuesMatch(a, b) || featureOverlap(a, b, 'max') >= SAME_STATEMENT) return candidate.slot === fact.slot ? 'same' : 'changed';
  return SINGLE_VALUED_SLOTS.has(candidate.slot) || sameChoice(candidate, fact) || samePlanFor(candidate, fact) ? 'changed' : null;
}

/** Two plans naming the same place or person ("driving to Denver", "flying to Denver after all") are one plan, said anew. */
function samePlanFor(candidate: FactCandidate, fact: ExistingFact): boolean {
  if (candidate.slot !== 'plan' || fact.slot !== 'plan') return false;
  const named = namesIn(fact);
  return [...namesIn(candidate)].some((name) => named.has(name));
}

/** The names a statement's value holds, so a date ("next Monday") names nothing. */
function namesIn({ text, value }: { text: string; value: string }): Set<string> {
  const valueWords = new Set(value.toLowerCase().split(/[^\p{L}]+/u));
  return new Set(properNames(text).filter((name) => valueWords.has(name)));
}

/**
 * A past statement replaces no other current fact: known already (NONE), or it ends the current fact that says the
 * same ("I used to be vegetarian" while vegetarian is on record: UPDATE), or it is ADDed beside the current one.
 */
function pastUpdate(candidate: FactCandidate, similar: ExistingFact[]): FactDecision[] {
  const known = similar.find((fact) => fact.slot === 'past' && relateKeyed(candidate.value, fact.value) === 'same');
  if (known) return [{ event: 'NONE', factId: known.id, candidate }];
  const [slot, value] = splitKey(candidate.value);
  const ended = similar.filter((fact) => fact.slot === slot && valuesMatch(fact.value, value));
  return ended.length ? ended.map((fact) => ({ event: 'UPDATE', factId: fact.id, candidate })) : [{ event: 'ADD', candidate }];
}

/**
 * Keyed values ("sister:anna", "dog", "child:2", "birthday:05-03"): a name identifies an individual, a count or a date
 * is said about the key. No detail in the candidate, or the same → known; a detail where the fact had none ("I have
 * a dog" → "my dog Rex"), or a new count or date → replaces; two names → two individuals.
 */
function relateKeyed(candidate: string, fact: string): 'same' | 'changed' | null {
  const [[key, detail], [factKey, factDetail]] = [splitKey(candidate), splitKey(fact)];
  if (normaliseValue(key) !== normaliseValue(factKey)) return null;
  if (!detail || normaliseValue(detail) === normaliseValue(factDetail)) return 'same';
  return !factDetail || (/\d/.test(detail) && /\d/.test(factDetail)) ? 'changed' : null;
}

/** A comparative or a superlative: the statement picks one thing among others. */
const CHOICE = /\b(?:prefer\w*|favou?rites?|faves?)\b|[更最]/iu;

/** Two picks of one choice: alike once the picks are cut out ("my favourite season is _"), or each naming the other's pick. */
function sameChoice(candidate: FactCandidate, fact: ExistingFact): boolean {
  // The pick cut out, British spelling made American ("favourite colour" = "favorite color").
  const frame = ({ text, value }: { text: string; value: string }) =>
    readClause(text)
      .toLowerCase()
      .replace(value, ' | ')
      .replace(/(?<=[a-z]{2})our(?=ite\b|\b)/g, 'or');
  const [a, b] = [frame(candidate), frame(fact)];
  if (CHOICE.test(a) && CHOICE.test(b) && featureOverlap(a, b, 'max') >= SAME_STATEMENT) return true;
  // Two values of one statement ("I like tea and coffee") are not a choice between them.
  return (
    normaliseValue(candidate.text) !== normaliseValue(fact.text) && names(candidate.text, fact.value) && names(fact.text, candidate.value)
  );
}

function names(text: string, value: string): boolean {
  const said = new Set(contentFeatures(text));
  const wanted = contentFeatures(value);
  return wanted.length > 0 && wanted.every((feature) => said.has(feature));
}

/** Which active facts a negated candidate ends: all of the slot when it names no value ("I quit my job", "I have no pets"). */
function endedFacts(candidate: FactCandidate, sameSlot: ExistingFact[]): ExistingFact[] {
  const { slot, value } = candidate;
  if (!value || /^(?:pet|宠物)$/u.test(value)) return sameSlot;
  if (KEYED_SLOTS.has(slot)) return sameSlot.filter((fact) => relateKeyed(value, fact.value) !== null);
  // Plans are worded freely ("cancelled my trip to Japan" vs "going to Japan"): half the content words is enough.
  return sameSlot.filter((fact) => valuesMatch(fact.value, value) || (slot === 'plan' && featureOverlap(fact.value, value, 'min') >= 0.5));
}
