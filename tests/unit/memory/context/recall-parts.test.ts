import { describe, expect, it } from 'vitest';
import { decomposeQuery, MAX_CLAUSES, namesNotIn, withoutHedges } from '@/lib/memory/context/decompose-query';
import { fuseRankings } from '@/lib/memory/context/fuse-rankings';
import { readTimeQuestion } from '@/lib/memory/context/time-question';

const now = new Date('2026-03-10T09:00:00Z');
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe('readTimeQuestion', () => {
  it('reads a named day, a named month and a Chinese month, each widened by the days things are told later', () => {
    expect(readTimeQuestion('What did I cook on 4 February 2026?', now).period).toMatchObject({
      from: day('2026-02-04'),
      to: day('2026-02-19'),
    });
    expect(readTimeQuestion('Which museum did we visit in October 2025?', now).period).toMatchObject({
      from: day('2025-10-01'),
      to: day('2025-11-15'),
    });
    expect(readTimeQuestion('我2025年11月读了哪本书？', now).period).toMatchObject({ from: day('2025-11-01'), to: day('2025-12-15') });
  });

  it('asks for the earliest or the latest occurrence in either language, and nothing of time otherwise', () => {
    expect(readTimeQuestion('When was my first swimming lesson?', now)).toEqual({ period: null, order: 'earliest' });
    expect(readTimeQuestion('What was the most recent film I reviewed?', now).order).toBe('latest');
    expect(readTimeQuestion('我第一次去冰岛是哪年？', now).order).toBe('earliest');
    expect(readTimeQuestion('我上一次换机油是什么时候？', now).order).toBe('latest');
    expect(readTimeQuestion('What colour is my bicycle?', now)).toEqual({ period: null, order: null });
  });
});

describe('decomposeQuery', () => {
  it('splits a question that names one thing through another, English and Chinese', () => {
    const en = decomposeQuery('Which instrument does the uncle who moved to Cork play?');
    expect(en.joins).toBe(true);
    expect(en.clauses).toEqual(['Which instrument does the uncle', 'who moved to Cork play?']);
    const zh = decomposeQuery('在深圳开店的那个同学叫什么名字？');
    expect(zh.joins).toBe(true);
    expect(zh.clauses.length).toBe(2);
  });

  it('searches a long message of repeated phrases by a few distinct clauses, not one per phrase', () => {
    const parts = decomposeQuery(`${'lovely, cheers, all sorted, '.repeat(400)}and one more thing`);
    expect(parts.clauses).toEqual(['lovely', 'cheers', 'all sorted', 'and one more thing']);
    const many = decomposeQuery(Array.from({ length: 40 }, (_, i) => `clause number ${i}`).join(', '));
    expect(many.clauses.length).toBe(MAX_CLAUSES);
    expect(many.clauses[0]).toBe('clause number 0');
  });

  it('cuts a long run of capitalised words into names of a few words', () => {
    const run = Array.from({ length: 500 }, (_, i) => `Word${String.fromCharCode(97 + (i % 26))}`).join(' ');
    const names = namesNotIn(run.replace(/\d/gu, ''), 'who is it?');
    expect(names.length).toBeGreaterThan(1);
    expect(Math.max(...names.map((name) => name.split(' ').length))).toBeLessThanOrEqual(4);
  });

  it('leaves a plain question whole, and a question word at the start is no relative clause', () => {
    expect(decomposeQuery('Where does my aunt keep her bees?')).toEqual({ clauses: [], joins: false });
    expect(decomposeQuery('我的猫几岁了？')).toEqual({ clauses: [], joins: false });
  });

  it('takes names from a found text that the question does not say, never dates or speaker labels', () => {
    const found = 'User: Ottilie, my old bandmate, moved to Cork in May. / Assistant: Does Ottilie still play the cello?';
    expect(namesNotIn(found, 'What does the bandmate who moved to Cork play?')).toEqual(['Ottilie']);
  });
});

describe('withoutHedges', () => {
  it('takes the words that frame a question as a guess out of its search by words, English and Chinese', () => {
    expect(withoutHedges('Would my nephew probably enjoy a pottery class?')).toBe('my nephew enjoy a pottery class?');
    expect(withoutHedges('What hobby might Tomasz likely pick up next?')).toBe('What hobby Tomasz pick up next?');
    expect(withoutHedges('她可能会喜欢爬山吗？')).toBe('她 会喜欢爬山吗？');
  });

  it('keeps a word that only contains a hedge, and a question of hedges alone as it is', () => {
    expect(withoutHedges('Where is the couldron shop Maybelline opened?')).toBe('Where is the couldron shop Maybelline opened?');
    expect(withoutHedges('Maybe?')).toBe('Maybe?');
  });
});

describe('fuseRankings', () => {
  it('ranks what several lists agree on first', () => {
    const hit = (id: string) => ({ id, score: 0 });
    const fused = fuseRankings([
      { hits: [hit('a'), hit('b'), hit('c')], weight: 1 },
      { hits: [hit('b'), hit('c')], weight: 1 },
    ]).map((h) => h.id);
    expect(fused).toEqual(['b', 'c', 'a']);
  });
});
