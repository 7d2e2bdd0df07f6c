import { describe, expect, it } from 'vitest';
import { numbersHeld, valueAsked } from '@/lib/memory/rules/value-asked';

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
    expect(valueAsked(question)).toEqual({ kind: 'instance', noun });
  });

  it.each([
    // Counting is answered by naming the things.
    'How many cousins do I have?',
    // 哪天, 哪里: the thing asked is the word itself (which day, where), not a kind.
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

describe('which statements hold a number', () => {
  it('in figures or words; 一 before a measure word is "a", not a number', () => {
    const texts = ['The allotment costs me 85 pounds a year.', 'I pay about forty a year for it.', 'The allotment fee went up again.'];
    expect(numbersHeld(texts)).toEqual([true, true, false]);
    expect(numbersHeld(['我租了一套离地铁很近的房子。', '房租每月三千五。'])).toEqual([false, true]);
  });
});
