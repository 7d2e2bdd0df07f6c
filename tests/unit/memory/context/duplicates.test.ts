import { describe, expect, it } from 'vitest';
import { type EpisodeItem, type FactItem, type MemoryItem, type SummaryItem, UNRANKED } from '@/lib/memory/context/context-item';
import { duplicatesAmong, summaryLinesSaidElsewhere } from '@/lib/memory/context/duplicates';

const factItem = (key: string, text: string, content: string): FactItem => ({
  key,
  kind: 'fact',
  block: 'facts',
  text,
  sourceMessageIds: [],
  ...UNRANKED,
  meta: { factId: key, slot: 'statement', conversationId: null, content, related: true },
});
const episodeItem = (key: string, text: string): EpisodeItem => ({
  key,
  kind: 'episode',
  block: 'episodes',
  text,
  sourceMessageIds: [],
  ...UNRANKED,
  meta: { conversationId: 'c', at: '2026-01-01T00:00:00.000Z' },
});
const summaryItem = (key: string, text: string): SummaryItem => ({
  key,
  kind: 'summary',
  block: 'summary',
  text,
  sourceMessageIds: [],
  meta: { version: 1, coveredMessageCount: 0, updatedBy: 'summariser' },
});
const leftOut = (summary: SummaryItem, sent: MemoryItem[]) =>
  summaryLinesSaidElsewhere(summary, sent).map(({ line, of }) => [line, of.key]);

describe('summaryLinesSaidElsewhere', () => {
  it('finds the lines a sent fact or exchange already says, whatever the notes, date or reply around them', () => {
    const summary = summaryItem(
      'summary:c@v3',
      [
        '- User: Which houseplants survive a dark hallway?',
        '- User: My landlord finally agreed to let me keep a rabbit in the flat.',
        '- Assistant: Snake plants and ZZ plants cope with very little light.',
        '- User: The spare bike lock key is taped under the third stair.',
      ].join('\n'),
    );
    const fact = factItem(
      'fact:1',
      'My landlord finally agreed to let me keep a rabbit in the flat (pets, current since 2026-04-02)',
      'My landlord finally agreed to let me keep a rabbit in the flat',
    );
    const exchange = episodeItem(
      'episode:7',
      '(2026-04-05) User: The spare bike lock key is taped under the third stair. / Assistant: Noted, under the third stair.',
    );
    const unrelated = episodeItem('episode:8', '(2026-04-06) User: What should I plant in a dark hallway? / Assistant: Ferns.');
    expect(leftOut(summary, [fact, summary, exchange, unrelated])).toEqual([
      [1, 'fact:1'],
      [3, 'episode:7'],
    ]);
  });

  it('reads Chinese lines by characters, and a line only partly said elsewhere stays', () => {
    const summary = summaryItem(
      'summary:c@v2',
      [
        '- User: 我家的猫只吃三文鱼口味的猫粮。',
        '- User: 下个月我要去成都出差一周，顺便看看大熊猫。',
        '- Assistant: 成都的火锅很有名。',
      ].join('\n'),
    );
    const exchange = episodeItem('episode:3', '(2026-05-01) User: 我家的猫只吃三文鱼口味的猫粮。 / Assistant: 好的，记住了。');
    // Says only the trip, not the pandas: most of the line's word pairs are not in it.
    const partly = episodeItem('episode:4', '(2026-05-02) User: 下个月要出差。 / Assistant: 一路顺利。');
    expect(leftOut(summary, [summary, exchange, partly])).toEqual([[0, 'episode:3']]);
  });

  it('leaves the summary whole when every line of it is said elsewhere', () => {
    const summary = summaryItem('summary:c@v1', '- User: I switched my night shifts to early mornings at the bakery.');
    const fact = factItem(
      'fact:2',
      'I switched my night shifts to early mornings at the bakery (work, current since 2026-06-01)',
      'I switched my night shifts to early mornings at the bakery',
    );
    expect(leftOut(summary, [fact, summary])).toEqual([]);
  });
});

describe('duplicatesAmong', () => {
  it('sets aside an exchange repeated word for word and one a fact already says, never the fact', () => {
    const fact = factItem(
      'fact:1',
      'I keep bees on the roof of my flat (hobby, current since 2026-02-01)',
      'I keep bees on the roof of my flat',
    );
    const first = episodeItem('episode:1', '(2026-02-01) User: I keep bees on the roof of my flat / Assistant: Nice.');
    const again = episodeItem('episode:2', '(2026-02-20) User: I keep bees on the roof of my flat / Assistant: Nice.');
    const other = episodeItem('episode:3', '(2026-02-21) User: The hive swarmed yesterday and I lost half of them. / Assistant: Oh no.');
    const found = duplicatesAmong([fact, first, again, other]).map(({ item: i, of }) => [i.key, of.key]);
    expect(found).toEqual([
      ['episode:1', 'fact:1'],
      ['episode:2', 'fact:1'],
    ]);
  });

  it('sets aside an exchange whose user message was said before, whatever the reply; short messages may repeat', () => {
    const first = episodeItem(
      'episode:1',
      '(2026-03-02) User: The boiler key hangs on a hook behind the pantry door. / Assistant: Good to know.',
    );
    const again = episodeItem(
      'episode:2',
      '(2026-03-09) User: The boiler key hangs on a hook behind the pantry door. / Assistant: Thanks, I will remember where it is.',
    );
    const thanks = episodeItem('episode:3', '(2026-03-09) User: ok thanks a lot / Assistant: You are welcome.');
    const thanksAgain = episodeItem('episode:4', '(2026-03-10) User: ok thanks a lot / Assistant: Any time, enjoy the trip.');
    const zh = episodeItem(
      'episode:5',
      '(2026-03-11) User: 备用眼镜我放在书房左边第三个抽屉里。 / Assistant: 记住了，下次找不到眼镜就来问我吧。',
    );
    const zhAgain = episodeItem(
      'episode:6',
      '(2026-03-12) User: 备用眼镜我放在书房左边第三个抽屉里。 / Assistant: 好的，以后出门前我会提醒你带上它们。',
    );
    const found = duplicatesAmong([first, again, thanks, thanksAgain, zh, zhAgain]).map(({ item: i, of, part }) => [i.key, of.key, part]);
    expect(found).toEqual([
      ['episode:2', 'episode:1', 'message'],
      ['episode:6', 'episode:5', 'message'],
    ]);
  });

  it('reads Chinese by characters, and scattered common words never make a duplicate', () => {
    const a = episodeItem('episode:1', '(2026-01-05) User: 我下周六要去苏州看昆曲。 / Assistant: 好。');
    const b = episodeItem('episode:2', '(2026-01-09) User: 我下周六要去苏州看昆曲。 / Assistant: 好。');
    const c = episodeItem('episode:3', '(2026-01-09) User: I went to the market and then to the park. / Assistant: Fun.');
    const d = episodeItem('episode:4', '(2026-01-10) User: The park was busy, the market too, and I went home. / Assistant: Sure.');
    expect(duplicatesAmong([a, b, c, d]).map(({ item: i }) => i.key)).toEqual(['episode:2']);
  });
});

describe('duplicatesAmong: an exchange a fact already says', () => {
  const fact = (key: string, content: string) => factItem(key, `${content} (health, current since 2026-07-01)`, content);
  const sesame = fact('fact:1', 'I cannot eat sesame, so leave it out of every dish you suggest');
  const running = fact('fact:2', '我每天早上六点去河边跑步，风雨无阻');
  const exchange = (key: string, message: string, reply: string) => episodeItem(key, `(2026-07-01) User: ${message} / Assistant: ${reply}`);

  it('sets aside an exchange whose message a fact says when its reply only acknowledges it', () => {
    const acknowledged = exchange('episode:1', 'I cannot eat sesame, so leave it out of every dish you suggest.', 'Got it, no sesame.');
    const zhAcknowledged = exchange('episode:2', '我每天早上六点去河边跑步，风雨无阻。', '记住了，真自律！');
    expect(duplicatesAmong([sesame, running, acknowledged, zhAcknowledged]).map(({ item: i, of }) => [i.key, of.key])).toEqual([
      ['episode:1', 'fact:1'],
      ['episode:2', 'fact:2'],
    ]);
  });

  it('keeps an exchange whose reply says more than the fact, in English and in Chinese', () => {
    const answered = exchange(
      'episode:1',
      'I cannot eat sesame, so leave it out of every dish you suggest.',
      'Understood. Tahini, halva and many bread rolls hold sesame, so I will steer clear of those too.',
    );
    const zhAnswered = exchange(
      'episode:2',
      '我每天早上六点去河边跑步，风雨无阻。',
      '很棒的习惯，冬天天亮得晚，记得穿反光背心，跑前多热身几分钟。',
    );
    expect(duplicatesAmong([sesame, running, answered, zhAnswered])).toEqual([]);
  });
});
