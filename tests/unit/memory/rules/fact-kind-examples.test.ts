import { describe, expect, it } from 'vitest';
import { extractFactCandidates } from '@/lib/memory/rules/facts';
import { FACT_KINDS, TYPED_SLOTS } from '@/lib/shared/fact-kinds';

// Each kind the rules fill gives a statement in English and in Chinese; the offline rules read each
// as that kind. A new kind fails here until both languages' matchers read its examples.
const NOW = new Date('2026-11-28T12:00:00Z');
const typed = FACT_KINDS.filter((kind) => kind.slot !== 'statement');

describe('each kind of fact is read by the offline rules in both languages', () => {
  it('every kind the rules fill has an example in each language', () => {
    expect(typed.map((kind) => kind.slot)).toEqual(TYPED_SLOTS);
    for (const kind of typed) expect('examples' in kind && kind.examples.en && kind.examples.zh, kind.slot).toBeTruthy();
  });

  it.each(
    typed.flatMap((kind) =>
      'examples' in kind ? (['en', 'zh'] as const).map((lang) => ({ slot: kind.slot, lang, text: kind.examples[lang] })) : [],
    ),
  )('$slot ($lang): $text', ({ slot, text }) => {
    expect(extractFactCandidates(text, NOW).map((found) => found.slot)).toContain(slot);
  });
});
