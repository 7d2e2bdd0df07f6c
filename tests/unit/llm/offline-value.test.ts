import { describe, expect, it } from 'vitest';
import { particularsCarried } from '@/lib/llm/offline-value';
import { valueAsked } from '@/lib/memory/rules/value-asked';

// Own words: whether a statement names a particular one of the kind a "which" question asks about.
const carried = (question: string, texts: string[]) => {
  const asked = valueAsked(question);
  return asked?.kind === 'instance' ? particularsCarried(question, asked.noun, texts) : null;
};

describe('whether a statement carries the value asked', () => {
  it('a particular one: a name, or the kind told apart; the kind alone is not; of other words it cannot tell', () => {
    expect(
      carried('Which bakery do I buy my bread from?', [
        'I get my sourdough from a bakery, and it is always warm.',
        'My bread comes from the bakery on Fenwick Street.',
        'I buy bread from Crumb and Loaf every Saturday.',
        'I prefer rye to white.',
      ]),
    ).toEqual([false, true, null, null]);
  });

  it('the kind, then what it is', () => {
    expect(
      carried('Which scooter is mine?', [
        'My scooter is the dented red one by the gate.',
        'My scooter is mine.',
        'I ride a scooter to work.',
      ]),
    ).toEqual([true, false, false]);
  });

  it('a member of the kind is a particular one of it, named or not', () => {
    expect(carried('Which instrument am I learning?', ['I started on the oboe in March.', 'I want to learn an instrument.'])).toEqual([
      true,
      false,
    ]);
  });

  it('in Chinese: a longer word ending in the kind, or one before it that the question lacks', () => {
    expect(carried('我弟弟在哪家银行上班？', ['我弟弟在银行上班。', '我弟弟在招商银行上班。', '我弟弟在农业银行工作。'])).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('a kind asked in English, said in Chinese', () => {
    expect(carried('Which hospital does my aunt work at?', ['我姑姑在医院当护士。', '我姑姑在华山医院当护士。'])).toEqual([false, true]);
  });

  it('asks nothing of a statement when the question asks no value, or a time', () => {
    expect(carried('Why did I give up cycling?', ['My knee hurt.'])).toBeNull();
    expect(carried('Which day is my dentist appointment?', ['It is on the 14th.'])).toBeNull();
  });
});
