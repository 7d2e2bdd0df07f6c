import { describe, expect, it } from 'vitest';
import { decomposeQuery, namesNotIn } from '@/lib/memory/decompose-query';
import { duplicatesAmong } from '@/lib/memory/duplicates';
import { fuseRankings } from '@/lib/memory/fuse-rankings';
import type { ContextItem } from '@/lib/memory/state';
import { readTimeQuestion } from '@/lib/memory/time-question';

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

  it('leaves a plain question whole, and a question word at the start is no relative clause', () => {
    expect(decomposeQuery('Where does my aunt keep her bees?')).toEqual({ clauses: [], joins: false });
    expect(decomposeQuery('我的猫几岁了？')).toEqual({ clauses: [], joins: false });
  });

  it('takes names from a found text that the question does not say, never dates or speaker labels', () => {
    const found = 'User: Ottilie, my old bandmate, moved to Cork in May. / Assistant: Does Ottilie still play the cello?';
    expect(namesNotIn(found, 'What does the bandmate who moved to Cork play?')).toEqual(['Ottilie']);
  });
});

describe('duplicatesAmong', () => {
  const item = (key: string, block: ContextItem['block'], text: string, meta?: Record<string, unknown>): ContextItem => ({
    key,
    kind: block === 'facts' ? 'fact' : block === 'summary' ? 'summary' : 'episode',
    block,
    text,
    sourceMessageIds: [],
    meta,
  });

  it('sets aside an exchange repeated word for word and one a fact already says, never the fact', () => {
    const fact = item('fact:1', 'facts', 'I keep bees on the roof of my flat (hobby, current since 2026-02-01)', {
      content: 'I keep bees on the roof of my flat',
    });
    const first = item('episode:1', 'episodes', '(2026-02-01) User: I keep bees on the roof of my flat / Assistant: Nice.');
    const again = item('episode:2', 'episodes', '(2026-02-20) User: I keep bees on the roof of my flat / Assistant: Nice.');
    const other = item(
      'episode:3',
      'episodes',
      '(2026-02-21) User: The hive swarmed yesterday and I lost half of them. / Assistant: Oh no.',
    );
    const found = duplicatesAmong([fact, first, again, other]).map(({ item: i, of }) => [i.key, of.key]);
    expect(found).toEqual([
      ['episode:1', 'fact:1'],
      ['episode:2', 'fact:1'],
    ]);
  });

  it('sets aside an exchange whose user message was said before, whatever the reply; short messages may repeat', () => {
    const first = item(
      'episode:1',
      'episodes',
      '(2026-03-02) User: The boiler key hangs on a hook behind the pantry door. / Assistant: Good to know.',
    );
    const again = item(
      'episode:2',
      'episodes',
      '(2026-03-09) User: The boiler key hangs on a hook behind the pantry door. / Assistant: Thanks, I will remember where it is.',
    );
    const thanks = item('episode:3', 'episodes', '(2026-03-09) User: ok thanks a lot / Assistant: You are welcome.');
    const thanksAgain = item('episode:4', 'episodes', '(2026-03-10) User: ok thanks a lot / Assistant: Any time, enjoy the trip.');
    const zh = item(
      'episode:5',
      'episodes',
      '(2026-03-11) User: 备用眼镜我放在书房左边第三个抽屉里。 / Assistant: 记住了，下次找不到眼镜就来问我吧。',
    );
    const zhAgain = item(
      'episode:6',
      'episodes',
      '(2026-03-12) User: 备用眼镜我放在书房左边第三个抽屉里。 / Assistant: 好的，以后出门前我会提醒你带上它们。',
    );
    const found = duplicatesAmong([first, again, thanks, thanksAgain, zh, zhAgain]).map(({ item: i, of, part }) => [i.key, of.key, part]);
    expect(found).toEqual([
      ['episode:2', 'episode:1', 'message'],
      ['episode:6', 'episode:5', 'message'],
    ]);
  });

  it('reads Chinese by characters, and scattered common words never make a duplicate', () => {
    const a = item('episode:1', 'episodes', '(2026-01-05) User: 我下周六要去苏州看昆曲。 / Assistant: 好。');
    const b = item('episode:2', 'episodes', '(2026-01-09) User: 我下周六要去苏州看昆曲。 / Assistant: 好。');
    const c = item('episode:3', 'episodes', '(2026-01-09) User: I went to the market and then to the park. / Assistant: Fun.');
    const d = item('episode:4', 'episodes', '(2026-01-10) User: The park was busy, the market too, and I went home. / Assistant: Sure.');
    expect(duplicatesAmong([a, b, c, d]).map(({ item: i }) => i.key)).toEqual(['episode:2']);
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
