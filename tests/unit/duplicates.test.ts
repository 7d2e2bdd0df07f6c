import { describe, expect, it } from 'vitest';
import { duplicatesAmong, summaryLinesSaidElsewhere } from '@/lib/memory/duplicates';
import type { ContextItem } from '@/lib/memory/state';

const item = (key: string, block: ContextItem['block'], text: string, meta?: Record<string, unknown>): ContextItem => ({
  key,
  kind: block === 'facts' ? 'fact' : block === 'summary' ? 'summary' : 'episode',
  block,
  text,
  sourceMessageIds: [],
  meta,
});
const leftOut = (summary: ContextItem, sent: ContextItem[]) =>
  summaryLinesSaidElsewhere(summary, sent).map(({ line, of }) => [line, of.key]);

describe('summaryLinesSaidElsewhere', () => {
  it('finds the lines a sent fact or exchange already says, whatever the notes, date or reply around them', () => {
    const summary = item(
      'summary:c@v3',
      'summary',
      [
        '- User: Which houseplants survive a dark hallway?',
        '- User: My landlord finally agreed to let me keep a rabbit in the flat.',
        '- Assistant: Snake plants and ZZ plants cope with very little light.',
        '- User: The spare bike lock key is taped under the third stair.',
      ].join('\n'),
    );
    const fact = item(
      'fact:1',
      'facts',
      'My landlord finally agreed to let me keep a rabbit in the flat (pets, current since 2026-04-02)',
      {
        content: 'My landlord finally agreed to let me keep a rabbit in the flat',
      },
    );
    const exchange = item(
      'episode:7',
      'episodes',
      '(2026-04-05) User: The spare bike lock key is taped under the third stair. / Assistant: Noted, under the third stair.',
    );
    const unrelated = item('episode:8', 'episodes', '(2026-04-06) User: What should I plant in a dark hallway? / Assistant: Ferns.');
    expect(leftOut(summary, [fact, summary, exchange, unrelated])).toEqual([
      [1, 'fact:1'],
      [3, 'episode:7'],
    ]);
  });

  it('reads Chinese lines by characters, and a line only partly said elsewhere stays', () => {
    const summary = item(
      'summary:c@v2',
      'summary',
      [
        '- User: 我家的猫只吃三文鱼口味的猫粮。',
        '- User: 下个月我要去成都出差一周，顺便看看大熊猫。',
        '- Assistant: 成都的火锅很有名。',
      ].join('\n'),
    );
    const exchange = item('episode:3', 'episodes', '(2026-05-01) User: 我家的猫只吃三文鱼口味的猫粮。 / Assistant: 好的，记住了。');
    // Says only the trip, not the pandas: most of the line's word pairs are not in it.
    const partly = item('episode:4', 'episodes', '(2026-05-02) User: 下个月要出差。 / Assistant: 一路顺利。');
    expect(leftOut(summary, [summary, exchange, partly])).toEqual([[0, 'episode:3']]);
  });

  it('leaves the summary whole when every line of it is said elsewhere', () => {
    const summary = item('summary:c@v1', 'summary', '- User: I switched my night shifts to early mornings at the bakery.');
    const fact = item('fact:2', 'facts', 'I switched my night shifts to early mornings at the bakery (work, current since 2026-06-01)', {
      content: 'I switched my night shifts to early mornings at the bakery',
    });
    expect(leftOut(summary, [fact, summary])).toEqual([]);
  });
});

describe('duplicatesAmong: an exchange a fact already says', () => {
  const fact = (key: string, content: string) => item(key, 'facts', `${content} (health, current since 2026-07-01)`, { content });

  it('sets aside an exchange whose message a fact says when its reply only acknowledges it', () => {
    const said = fact('fact:1', 'I cannot eat sesame, so leave it out of every dish you suggest');
    const acknowledged = item(
      'episode:1',
      'episodes',
      '(2026-07-01) User: I cannot eat sesame, so leave it out of every dish you suggest. / Assistant: Got it, no sesame.',
    );
    const zhFact = fact('fact:2', '我每天早上六点去河边跑步，风雨无阻');
    const zhAcknowledged = item(
      'episode:2',
      'episodes',
      '(2026-07-02) User: 我每天早上六点去河边跑步，风雨无阻。 / Assistant: 记住了，真自律！',
    );
    expect(duplicatesAmong([said, zhFact, acknowledged, zhAcknowledged]).map(({ item: i, of }) => [i.key, of.key])).toEqual([
      ['episode:1', 'fact:1'],
      ['episode:2', 'fact:2'],
    ]);
  });

  it('keeps an exchange whose reply says more than the fact, in English and in Chinese', () => {
    const said = fact('fact:1', 'I cannot eat sesame, so leave it out of every dish you suggest');
    const answered = item(
      'episode:1',
      'episodes',
      '(2026-07-01) User: I cannot eat sesame, so leave it out of every dish you suggest. / Assistant: Understood. Tahini, halva and many bread rolls hold sesame, so I will steer clear of those too.',
    );
    const zhFact = fact('fact:2', '我每天早上六点去河边跑步，风雨无阻');
    const zhAnswered = item(
      'episode:2',
      'episodes',
      '(2026-07-02) User: 我每天早上六点去河边跑步，风雨无阻。 / Assistant: 很棒的习惯，冬天天亮得晚，记得穿反光背心，跑前多热身几分钟。',
    );
    expect(duplicatesAmong([said, zhFact, answered, zhAnswered])).toEqual([]);
  });
});
