import { describe, expect, it } from 'vitest';
import { extractFactCandidates } from '@/lib/memory/rules/facts';
import { feelingVerbAt } from '@/lib/text/feeling-verbs';

const NOW = new Date('2026-11-28T12:00:00Z');
const facts = (text: string) => extractFactCandidates(text, NOW).map((f) => `${f.negated ? 'not ' : ''}${f.slot}: ${f.value}`);

// Which verbs say a liking or a disliking is read from WordNet's verbs of emotion, not listed: these verbs
// appear in no rule of the project.
describe('verbs of liking and disliking (WordNet verb.emotion)', () => {
  it.each([
    ['cherish', 'like'],
    ['relish', 'like'],
    ['worship', 'like'],
    ['idolize', 'like'],
    ['abhor', 'dislike'],
    ['resent', 'dislike'],
    ['scorn', 'dislike'],
    ['execrate', 'dislike'],
  ])('%s is a verb of %s', (verb, feeling) => {
    expect(feelingVerbAt([verb, 'it'])).toEqual({ feeling, length: 1 });
  });

  it('takes WordNet multi-word verbs whole', () => {
    expect(feelingVerbAt(['look', 'down', 'on', 'gossip'])).toEqual({ feeling: 'dislike', length: 3 });
    expect(feelingVerbAt(['hold', 'dear', 'those', 'letters'])).toEqual({ feeling: 'like', length: 2 });
  });

  it('does not read wanting, missing or regretting as liking or disliking', () => {
    for (const verb of ['miss', 'crave', 'want', 'regret', 'envy', 'visit', 'own']) expect(feelingVerbAt([verb, 'it']), verb).toBeNull();
  });
});

describe('a liking or a disliking said with a verb no rule lists', () => {
  it.each([
    ['I cherish the postcards my aunt sends from Malta.', 'like: postcards my aunt sends from malta'],
    ['We relish long drives along the coast.', 'like: long drives along the coast'],
    ['I abhor crowded trams.', 'dislike: crowded trams'],
    ['To be honest I resent mandatory team lunches.', 'dislike: mandatory team lunches'],
    ['I scorn reality television.', 'dislike: reality television'],
  ])('%s', (text, fact) => {
    expect(facts(text)).toContain(fact);
  });

  it('a liking said with such a verb can be taken back', () => {
    expect(facts("I don't cherish my old comics anymore.")).toContain('not like: my old comics');
  });

  it('a verb of wanting, or one about the assistant, leaves nothing', () => {
    expect(facts('I miss the harbour in Gdańsk.')).toEqual([]);
    expect(facts('I cherish you, assistant.')).toEqual([]);
  });
});
