import { describe, expect, it } from 'vitest';
import { valueAsked, valuesCarried } from '@/lib/memory/rules/value-asked';

// Questions and statements in words of their own: what a question about the user's life needs a statement to say.
describe('the value a question asks for', () => {
  it.each([
    "What's my locker combination number?",
    'How much do I pay for the allotment each year?',
    'How old is my nephew now?',
    '我房租多少钱？',
    '我女儿今年几岁了？',
  ])('a number: %s', (question) => {
    expect(valueAsked(question)).toEqual({ kind: 'number' });
  });

  it.each([
    ['Which bakery do I buy my bread from?', 'bakery'],
    ['What choir do I sing in?', 'choir'],
    ['我在哪所学校读书？', '学校'],
    ['我弟弟在哪家银行上班？', '银行'],
  ])('a particular one of a kind: %s', (question, noun) => {
    const asked = valueAsked(question);
    expect(asked?.kind).toBe('instance');
    expect(asked?.kind === 'instance' && asked.nouns).toContain(noun);
  });

  it.each([
    // Counting is answered by naming the things.
    'How many cousins do I have?',
    // A day or a year is asked, not a member of a kind.
    'Which day is my dentist appointment?',
    '我哪天出发去机场？',
    // About something other than the user's life: what the world knows, not memory.
    'How much does a kilo of rice cost?',
    '这本书有多少页？',
    // No value: a reason, a way, a yes or no.
    'Why did I give up cycling?',
    'Should I bring my umbrella?',
  ])('none: %s', (question) => {
    expect(valueAsked(question)).toBeNull();
  });
});

describe('whether a statement carries the value asked', () => {
  it('a particular one: a name, or the kind told apart; the kind alone is not; of other words it cannot tell', () => {
    expect(
      valuesCarried('Which bakery do I buy my bread from?', [
        'I get my sourdough from a bakery near the office.',
        'My bread comes from the bakery on Fenwick Street.',
        'I buy bread from Crumb and Loaf every Saturday.',
        'I prefer rye to white.',
      ]),
    ).toEqual([false, true, null, null]);
  });

  it('a member of the kind is a particular one of it', () => {
    expect(valuesCarried('Which instrument am I learning?', ['I started on the oboe in March.', 'I want to learn an instrument.'])).toEqual(
      [true, false],
    );
  });

  it('in Chinese: a longer word ending in the kind, or one before it that the question lacks', () => {
    expect(valuesCarried('我弟弟在哪家银行上班？', ['我弟弟在银行上班。', '我弟弟在招商银行上班。', '我弟弟在农业银行工作。'])).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('a number, in figures or words; 一 before a measure word is "a", not a number', () => {
    expect(
      valuesCarried('How much do I pay for the allotment each year?', [
        'The allotment costs me 85 pounds a year.',
        'I pay about forty a year for it.',
        'The allotment fee went up again.',
      ]),
    ).toEqual([true, true, false]);
    expect(valuesCarried('我房租多少钱？', ['我租了一套离地铁很近的房子。', '房租每月三千五。'])).toEqual([false, true]);
  });

  it('asks nothing of a statement when the question asks no value', () => {
    expect(valuesCarried('Why did I give up cycling?', ['My knee hurt.'])).toBeNull();
  });
});
