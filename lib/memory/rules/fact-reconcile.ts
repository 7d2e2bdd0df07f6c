/**
 * Offline reconciliation (mem0's ADD / UPDATE / DELETE / NONE step without an LLM): compare one new
 * candidate with the user's active facts that look related, slot by slot.
 */
import {
  SINGLE_VALUED_SLOTS,
  featureOverlap,
  normaliseValue,
  splitKey,
  valuesMatch,
  type ExistingFact,
  type FactCandidate,
  type FactDecision,
} from './fact-types';

/** Near-identical wording for free-form statements. */
const SAME_STATEMENT = 0.8;

/** `similar` = the user's ACTIVE facts that look related (same slot or similar wording), found by the caller. */
export function decideFactUpdate(candidate: FactCandidate, similar: ExistingFact[]): FactDecision[] {
  const sameSlot = similar.filter((fact) => fact.slot === candidate.slot);
  if (candidate.negated) {
    // Something stopped being true. With nothing on record to end, there is nothing to do: storing
    // "not vegetarian" as an active fact would make a later "I'm vegetarian" look already known.
    return endedFacts(candidate, sameSlot).map((fact) => ({ event: 'DELETE', factId: fact.id, candidate }));
  }
  if (SINGLE_VALUED_SLOTS.has(candidate.slot)) return decideSingleValued(candidate, sameSlot);
  return decideMultiValued(candidate, similar, sameSlot);
}

/** Which active facts a negated candidate ends: all of the slot when it names no value ("I quit my job", "I have no pets"). */
function endedFacts(candidate: FactCandidate, sameSlot: ExistingFact[]): ExistingFact[] {
  if (candidate.slot === 'statement') {
    return sameSlot.filter(
      (fact) => Math.max(featureOverlap(candidate.value, fact.text, 'min'), featureOverlap(candidate.value, fact.value, 'min')) >= SAME_STATEMENT,
    );
  }
  if (!candidate.value || /^(?:pet|宠物)$/u.test(candidate.value)) return sameSlot;
  if (candidate.slot === 'plan') {
    // Plans are worded freely ("cancelled my trip to Japan" vs "going to Japan"): half the content words is enough.
    return sameSlot.filter((fact) => valuesMatch(fact.value, candidate.value) || featureOverlap(fact.value, candidate.value, 'min') >= 0.5);
  }
  return sameSlot.filter((fact) => valuesMatch(fact.value, candidate.value));
}

/** One name, home, job, diet at a time: the same value is known, a different one replaces it. */
function decideSingleValued(candidate: FactCandidate, sameSlot: ExistingFact[]): FactDecision[] {
  const known = sameSlot.find((fact) => valuesMatch(fact.value, candidate.value));
  if (known) return [{ event: 'NONE', factId: known.id, candidate }];
  if (sameSlot.length) return sameSlot.map((fact) => ({ event: 'UPDATE', factId: fact.id, candidate }));
  return [{ event: 'ADD', candidate }];
}

function decideMultiValued(candidate: FactCandidate, similar: ExistingFact[], sameSlot: ExistingFact[]): FactDecision[] {
  if (candidate.slot === 'statement') {
    const known = sameSlot.find(
      (fact) => normaliseValue(fact.value) === normaliseValue(candidate.value) || featureOverlap(fact.text, candidate.text, 'max') >= SAME_STATEMENT,
    );
    return known ? [{ event: 'NONE', factId: known.id, candidate }] : [{ event: 'ADD', candidate }];
  }
  if (candidate.slot === 'family' || candidate.slot === 'pet' || candidate.slot === 'date') return decideKeyed(candidate, sameSlot);

  const known = sameSlot.find((fact) => valuesMatch(fact.value, candidate.value));
  if (known) return [{ event: 'NONE', factId: known.id, candidate }];
  if (candidate.slot === 'like' || candidate.slot === 'dislike') {
    // "I hate sushi now" after "I love sushi": the opposite opinion replaces the old one.
    const opposite = candidate.slot === 'like' ? 'dislike' : 'like';
    const flipped = similar.filter((fact) => fact.slot === opposite && valuesMatch(fact.value, candidate.value));
    if (flipped.length) return flipped.map((fact) => ({ event: 'UPDATE', factId: fact.id, candidate }));
    // "My favourite colour is green" after "… is blue": one favourite per category.
    const category = favouriteCategory(candidate.text);
    const replaced = category ? sameSlot.filter((fact) => favouriteCategory(fact.text) === category) : [];
    if (replaced.length) return replaced.map((fact) => ({ event: 'UPDATE', factId: fact.id, candidate }));
  }
  if (candidate.slot === 'plan') {
    const same = sameSlot.find((fact) => featureOverlap(fact.value, candidate.value, 'max') >= SAME_STATEMENT);
    if (same) return [{ event: 'NONE', factId: same.id, candidate }];
  }
  return [{ event: 'ADD', candidate }];
}

/**
 * Keyed values ("sister:anna", "dog", "cat:2", "birthday:05-03"):
 * - same key and detail, or a candidate without detail for a fact that has one → already known;
 * - a detail where the fact had none ("I have a dog" → "my dog Rex"), a new count ("child:2" → "child:3"),
 *   or a new date for the same occasion → the more precise / corrected fact replaces the old one;
 * - two different names under one key are two different people or pets → ADD.
 */
function decideKeyed(candidate: FactCandidate, sameSlot: ExistingFact[]): FactDecision[] {
  const [key, detail] = splitKey(candidate.value);
  const sameKey = sameSlot.filter((fact) => normaliseValue(splitKey(fact.value)[0]) === normaliseValue(key));
  const known = sameKey.find((fact) => {
    const other = splitKey(fact.value)[1];
    return !detail || normaliseValue(other) === normaliseValue(detail);
  });
  if (known) return [{ event: 'NONE', factId: known.id, candidate }];
  const replaced = sameKey.filter((fact) => {
    const other = splitKey(fact.value)[1];
    return !other || candidate.slot === 'date' || (/^\d+$/.test(other) && /^\d+$/.test(detail));
  });
  if (replaced.length) return replaced.map((fact) => ({ event: 'UPDATE', factId: fact.id, candidate }));
  return [{ event: 'ADD', candidate }];
}

/** "My favourite colour is blue" / "Blue is my favourite colour" / 我最喜欢的颜色是蓝色 → "colour" / "颜色". */
function favouriteCategory(text: string): string | null {
  const m =
    /\bfavou?rite ([\w\s-]+?) (?:is|are|has to be|would be)\b/i.exec(text) ??
    /\bis my (?:absolute |all-time )?favou?rite ([\w\s-]+)$/i.exec(text) ??
    /最喜欢的(.+?)(?:是|就是)/u.exec(text) ??
    /是我最喜欢的(.+)$/u.exec(text);
  return m ? normaliseValue(m[1].replace(/colou?r/i, 'color')) : null;
}
