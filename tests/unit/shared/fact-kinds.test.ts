import { describe, expect, it } from 'vitest';
import { slotsNamed } from '@/lib/memory/rules/forget';
import { FACT_KINDS, FACT_SLOTS, KEYED_SLOTS, KIND_HINTS, SINGLE_VALUED_SLOTS, TYPED_SLOTS } from '@/lib/shared/fact-kinds';

// The kinds of fact are one list of data; these are the promises every entry keeps.
describe('the kinds of fact', () => {
  it('name each slot once, with a label in both languages', () => {
    expect(new Set(FACT_SLOTS).size).toBe(FACT_SLOTS.length);
    for (const kind of FACT_KINDS) {
      expect(kind.label.en.trim(), kind.slot).not.toBe('');
      expect(kind.label.zh.trim(), kind.slot).not.toBe('');
    }
    expect(TYPED_SLOTS).not.toContain('statement');
    expect(TYPED_SLOTS.length).toBe(FACT_SLOTS.length - 1);
  });

  it('derive which hold one value at a time and which are keyed from the entries', () => {
    expect([...SINGLE_VALUED_SLOTS].sort()).toEqual(['diet', 'location', 'name', 'work']);
    expect(KEYED_SLOTS.has('family')).toBe(true);
    expect(KEYED_SLOTS.has('like')).toBe(false);
  });

  it("give the memory model's list each kind that has a hint, in the list's order", () => {
    const hints = FACT_KINDS.flatMap((kind) => ('hint' in kind ? [kind.hint] : []));
    expect(KIND_HINTS.split(', ')).toEqual(hints);
    expect(KIND_HINTS).toContain('allergies');
  });

  it('are found by their words in a request or a question, English and Chinese', () => {
    expect(slotsNamed('please drop my hometown and my employer')).toEqual(['location', 'work']);
    expect(slotsNamed('which allergies did I mention?')).toEqual(['allergy']);
    expect(slotsNamed('把我的宠物和饮食都忘掉')).toEqual(['diet', 'pet']);
    expect(slotsNamed('the weather tomorrow')).toEqual([]);
  });
});
