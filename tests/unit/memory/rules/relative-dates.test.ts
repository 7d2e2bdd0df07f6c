import { describe, expect, it } from 'vitest';
import { absolutizeRelativeDates, findDates } from '@/lib/memory/rules/relative-dates';

// A Wednesday. Its week (Monday start) is 2027-03-08 … 2027-03-14.
const NOW = new Date('2027-03-10T15:30:00Z');
const resolve = (text: string, now = NOW) => absolutizeRelativeDates(text, now);
const spans = (text: string, now = NOW) =>
  findDates(text, now).map((d) => [text.slice(d.index, d.index + d.length), d.start.toISOString().slice(0, 10), d.future] as const);

describe('dates the reader adds to chrono', () => {
  it.each<[string, string, string]>([
    // [said, rewritten, date]
    ['We split up a fortnight ago.', 'We split up in the week of 2027-02-22.', 'the week of 2027-02-22'],
    ['The parcel should land in a fortnight', 'The parcel should land in the week of 2027-03-22', 'the week of 2027-03-22'],
    ['I flew to Oslo the week before last', 'I flew to Oslo in the week of 2027-02-22', 'the week of 2027-02-22'],
    ['the month before last was rough', '2027-01 was rough', '2027-01'],
    ['前两周我在外婆家', '2027-02-22那周我在外婆家', 'the week of 2027-02-22'],
    ['三周后交论文', '2027-03-29那周交论文', 'the week of 2027-03-29'],
    ['大前年搬的家', '2024年搬的家', '2024'],
    ['下下个月再说', '2027-05再说', '2027-05'],
    ['上上周末去爬山了', '2027-02-27那个周末去爬山了', 'the weekend of 2027-02-27'],
    ['这周日有空吗', '2027-03-14有空吗', '2027-03-14'],
  ])('%j → %j', (said, rewritten, date) => {
    const { text, resolved } = resolve(said);
    expect(text).toBe(rewritten);
    expect(resolved.map((r) => r.date)).toEqual([date]);
  });

  it('takes "last night" for the evening before, even after midnight', () => {
    expect(resolve('The storm last night knocked out the power', new Date('2027-03-10T01:10:00Z')).text).toBe(
      'The storm on the night of 2027-03-09 knocked out the power',
    );
  });
});

describe('what chrono reads, in the conventions of the project', () => {
  it.each<[string, string]>([
    ['Last Fri the boiler broke', 'On 2027-03-05 the boiler broke'],
    ['The audit was three weeks ago', 'The audit was in the week of 2027-02-15'],
    ['Tomorrow morning I see the dentist', 'On the morning of 2027-03-11 I see the dentist'],
    ['我们下周四见', '我们2027-03-18见'],
    ['十天前丢了钱包', '2027-02-28丢了钱包'],
    ['两年前学的滑雪', '2025年学的滑雪'],
  ])('%j → %j', (said, rewritten) => {
    expect(resolve(said).text).toBe(rewritten);
  });

  it('keeps a hedge before a date, the comma after it and a clock time around it in the text', () => {
    expect(resolve('We adopted her roughly two years ago, in the rain').text).toBe('We adopted her roughly in 2025, in the rain');
    expect(resolve('The plumber comes tomorrow at 8am').text).toBe('The plumber comes on 2027-03-11 at 8am');
    expect(resolve('9:15 next Monday suits me').text).toBe('9:15 on 2027-03-15 suits me');
    expect(resolve('She left 4 years ago').text).toBe('She left in 2023');
    expect(resolve('后天上午十点半面试').text).toBe('2027-03-12上午十点半面试');
    expect(resolve('昨天晚上8:30才到家').text).toBe('2027-03-09晚上8:30才到家');
  });

  it.each([
    ['The sun was out all day', 'a weekday abbreviation that is a word'],
    ['It took an hour ago to get there', 'a time, not a date'],
    ['I moved here a few years ago', 'a vague amount'],
    ['We rehearse on Thursday', 'a bare weekday'],
    ['我们晚上散步', 'a time of day alone'],
    ['我们一起度过了一下午', 'no date at all'],
  ])('leaves %j alone (%s)', (said) => {
    expect(resolve(said)).toEqual({ text: said, resolved: [] });
  });
});

describe('findDates', () => {
  it('reads a weekday in a statement about the past as the last one', () => {
    expect(spans('We closed the deal on Friday')).toEqual([['on Friday', '2027-03-05', false]]);
    expect(spans('We close the deal on Friday')).toEqual([['on Friday', '2027-03-12', true]]);
  });

  it('gives each phrase its unit: a week from its Monday, a year from January', () => {
    expect(spans('I switched teams the week before last')).toEqual([['the week before last', '2027-02-22', false]]);
    expect(spans('我前年开始学琴')).toEqual([['前年', '2025-01-01', false]]);
    expect(spans('两周后我去成都出差')).toEqual([['两周后', '2027-03-22', true]]);
  });

  it('keeps spans that chrono lacks: seasons, years after since, durations in a perfect tense', () => {
    expect(spans("I've been cycling to work since 2021 and for about three years")).toEqual([
      ['since 2021', '2021-01-01', false],
      ['for about three years', '2024-03-10', false],
    ]);
    expect(spans('We got the allotment last autumn')).toEqual([['last autumn', '2026-09-01', false]]);
  });
});

describe('Chinese in traditional characters, and full dates', () => {
  it.each<[string, string]>([
    ['我上週三去了台北', '我2027-03-03去了台北'],
    ['上個月搬家了', '2027-02搬家了'],
    ['這週末有空嗎', '2027-03-13那个周末有空嗎'],
  ])('%j → %j', (said, rewritten) => {
    expect(resolve(said).text).toBe(rewritten);
  });

  it('reads a full date after its year, not the year alone', () => {
    expect(spans('我们2019年6月2日领的证')).toEqual([['2019年6月2日', '2019-06-02', false]]);
    expect(spans('我2019年开始学琴')).toEqual([['2019年开始', '2019-01-01', false]]);
  });
});
