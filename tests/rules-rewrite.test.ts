import { describe, expect, it } from 'vitest';
import { absolutizeRelativeDates } from '@/lib/memory/rules/relative-dates';
import { detectRewriteTrigger, rewriteOffline, type RecentTurn } from '@/lib/memory/rules/rewrite';

// A Saturday. Its week (Monday start) is 2026-11-16 … 2026-11-22.
const NOW = new Date('2026-11-21T12:00:00Z');

describe('detectRewriteTrigger', () => {
  it.each<[string, number, boolean, string]>([
    // No trigger
    ['What is the capital of Australia?', 1, false, 'standalone'],
    ['How do I keep basil fresh?', 3, false, 'standalone'],
    ['why?', 0, false, 'first turn'],
    ['Tell me about it.', 0, false, 'first turn'],
    ['它是哪一年上映的？', 0, false, 'first turn'],
    ['Is it true that cats sleep sixteen hours a day?', 2, false, 'standalone'],
    ['What time is it in Tokyo right now?', 2, false, 'standalone'],
    ['How long does it take to boil an egg?', 1, false, 'standalone'],
    ['I think that basil grows best on a sunny windowsill, right?', 1, false, 'standalone'],
    ['Thanks!', 2, false, 'small talk'],
    ['我想学吉他，有什么建议吗？', 1, false, 'standalone'],
    ['北京有哪些好吃的烤鸭店推荐？', 2, false, 'standalone'],
    // References
    ['Who was that director we talked about earlier?', 1, true, 'reference: "that director"'],
    ['When was it released?', 1, true, 'reference: "it"'],
    ['What else did he direct?', 2, true, 'reference: "he"'],
    ['Tell me more about that.', 1, true, 'reference: "that"'],
    ['Who directed the latter?', 1, true, 'reference: "the latter"'],
    ['它是哪一年上映的？', 1, true, 'reference: "它"'],
    ['那部电影是谁导演的？', 1, true, 'reference: "那部"'],
    ['他多大了？', 1, true, 'reference: "他"'],
    ['前者更好看吗？', 1, true, 'reference: "前者"'],
    // Ellipsis and short questions
    ['why?', 1, true, 'short question'],
    ['Really?', 1, true, 'short question'],
    ['为什么？', 1, true, 'short question'],
    ['然后呢', 1, true, 'ellipsis'],
    ['And then?', 1, true, 'ellipsis'],
    ['What about Gattaca?', 1, true, 'ellipsis'],
    ['那上海呢？', 1, true, 'ellipsis'],
    // Relative dates trigger even on a first turn
    ['What did I say yesterday?', 0, true, 'relative date: "yesterday"'],
    ['上周我去了哪里', 0, true, 'relative date: "上周"'],
    ['What did we plan for next month?', 3, true, 'relative date: "next month"'],
    ['When did it happen, last week?', 1, true, 'reference: "it"; relative date: "last week"'],
  ])('%j after %i user turns → needed %s (%s)', (question, prior, needed, reason) => {
    expect(detectRewriteTrigger(question, prior)).toEqual({ needed, reason });
  });

  it('does not take "this week" for a "this" reference', () => {
    expect(detectRewriteTrigger('What did we do this week?', 2)).toEqual({ needed: true, reason: 'relative date: "this week"' });
  });
});

const zhMovieAndTea: RecentTurn[] = [
  { role: 'user', content: '我最近在看《星际穿越》，特别喜欢里面的配乐。' },
  { role: 'assistant', content: '《星际穿越》的配乐是汉斯·季默写的，管风琴的部分非常震撼。' },
  { role: 'user', content: '怎么泡绿茶比较好喝？' },
  { role: 'assistant', content: '水温八十度左右，绿茶不要用沸水，泡两三分钟就好。' },
];
const enMovieAndBasil: RecentTurn[] = [
  { role: 'user', content: 'I rewatched Interstellar last night. Christopher Nolan really knows how to direct a space film.' },
  { role: 'assistant', content: "Interstellar is a great film! Hans Zimmer's organ score is a big part of it." },
  { role: 'user', content: 'How do I keep basil fresh?' },
  { role: 'assistant', content: 'Keep basil in a glass of water on the counter, like cut flowers, and out of the fridge.' },
];
const enFavourites: RecentTurn[] = [
  { role: 'user', content: "Let's talk 90s sci-fi movies. My favourite is The Matrix, then Gattaca." },
  { role: 'assistant', content: 'Great picks! The Matrix came out in 1999 and Gattaca in 1997.' },
];
const enPartner: RecentTurn[] = [
  { role: 'user', content: 'My sister Anna Keller just moved to Lisbon.' },
  { role: 'assistant', content: 'That is exciting! Lisbon is a lovely city.' },
];

describe('rewriteOffline: resolving the reference', () => {
  it.each<[string, RecentTurn[], string, string, string]>([
    // [label, recent, question, expected entity, expected query]
    ['zh 它 → the user\'s film, over the more recent green tea', zhMovieAndTea, '它是哪一年上映的？', '星际穿越', '《星际穿越》是哪一年上映的？'],
    ['zh 那部电影 → title, apposition', zhMovieAndTea, '那部电影是谁导演的？', '星际穿越', '《星际穿越》那部电影是谁导演的？'],
    ['zh 他 → the transliterated name', zhMovieAndTea, '他还写过什么？', '汉斯·季默', '汉斯·季默还写过什么？'],
    ['zh 它 without work cues → most recent thing', zhMovieAndTea, '它要放冰箱吗？', '绿茶', '绿茶要放冰箱吗？'],
    ['zh short question → appended', zhMovieAndTea, '为什么？', '绿茶', '为什么？（绿茶）'],
    ['en "it" + released → the film the user brought up', enMovieAndBasil, 'When was it released?', 'Interstellar', 'When was Interstellar released?'],
    ['en "that director" → the name next to "direct"', enMovieAndBasil, 'Who was that director we talked about earlier?', 'Christopher Nolan', 'Who was that director (Christopher Nolan) we talked about earlier?'],
    ['en "he" + direct → Nolan, not the composer', enMovieAndBasil, 'What else did he direct?', 'Christopher Nolan', 'What else did Christopher Nolan direct?'],
    ['en possessive "its"', enMovieAndBasil, 'Who composed its score?', 'Interstellar', "Who composed Interstellar's score?"],
    ['en plain "it" → the most recent topic', enMovieAndBasil, 'Does it need sun?', 'basil', 'Does basil need sun?'],
    ['en "it" compared with a name → a name', enMovieAndBasil, 'Is it better than Inception?', 'Interstellar', 'Is Interstellar better than Inception?'],
    ['en the former', enFavourites, 'When did the former come out?', 'The Matrix', 'When did The Matrix come out?'],
    ['en the latter', enFavourites, 'Who directed the latter?', 'Gattaca', 'Who directed Gattaca?'],
    ['en "she" → the person, not the city', enPartner, 'What does she do for work?', 'Anna Keller', 'What does Anna Keller do for work?'],
    ['en short question → appended', enFavourites, 'why?', 'Gattaca', 'why? (Gattaca)'],
  ])('%s', (_, recent, question, entity, query) => {
    const result = rewriteOffline(question, recent, NOW);
    expect(result.entity).toBe(entity);
    expect(result.query).toBe(query);
  });

  it('leaves the question alone when there is nothing to point at', () => {
    expect(rewriteOffline('Why is that?', [{ role: 'user', content: 'hello' }], NOW)).toEqual({ query: 'Why is that?', datesResolved: [] });
  });

  it('skips entities already named in the question', () => {
    expect(rewriteOffline('What about Gattaca?', enFavourites, NOW).entity).toBe('The Matrix');
  });

  it('resolves dates and references together', () => {
    const result = rewriteOffline('What did I say about it yesterday?', enMovieAndBasil, NOW);
    expect(result.query).toBe('What did I say about basil on 2026-11-20?');
    expect(result.datesResolved).toEqual(['yesterday → 2026-11-20']);
  });

  it('is pure: the same input gives the same output and the inputs are not changed', () => {
    const recent = structuredClone(zhMovieAndTea);
    expect(rewriteOffline('它是哪一年上映的？', recent, NOW)).toEqual(rewriteOffline('它是哪一年上映的？', recent, NOW));
    expect(recent).toEqual(zhMovieAndTea);
  });
});

describe('absolutizeRelativeDates (now = 2026-11-21, weeks start Monday, UTC)', () => {
  it.each<[string, string, string[]]>([
    // English days
    ['What did I say yesterday?', 'What did I say on 2026-11-20?', ['2026-11-20']],
    ['Yesterday I went running.', 'On 2026-11-20 I went running.', ['2026-11-20']],
    ['What is on today?', 'What is on 2026-11-21?', ['2026-11-21']],
    ['Remind me tomorrow.', 'Remind me on 2026-11-22.', ['2026-11-22']],
    ['the day before yesterday', 'on 2026-11-19', ['2026-11-19']],
    ['the day after tomorrow', 'on 2026-11-23', ['2026-11-23']],
    ['I called her two days ago', 'I called her on 2026-11-19', ['2026-11-19']],
    ['in 3 days', 'on 2026-11-24', ['2026-11-24']],
    ["yesterday's meeting", "2026-11-20's meeting", ['2026-11-20']],
    ['since yesterday', 'since 2026-11-20', ['2026-11-20']],
    ['What did I eat last night?', 'What did I eat on the night of 2026-11-20?', ['2026-11-20']],
    // English weekdays: last = most recent before today, next = first after, this = in this week
    ['last Monday', 'on 2026-11-16', ['2026-11-16']],
    ['last Saturday', 'on 2026-11-14', ['2026-11-14']],
    ['next Monday', 'on 2026-11-23', ['2026-11-23']],
    ['this Friday', 'on 2026-11-20', ['2026-11-20']],
    // English weeks, months, years
    ['What did I do last week?', 'What did I do in the week of 2026-11-09?', ['the week of 2026-11-09']],
    ['this week', 'in the week of 2026-11-16', ['the week of 2026-11-16']],
    ['two weeks ago', 'in the week of 2026-11-02', ['the week of 2026-11-02']],
    ['last weekend', 'on the weekend of 2026-11-14', ['the weekend of 2026-11-14']],
    ['Where did I travel last month?', 'Where did I travel in 2026-10?', ['2026-10']],
    ['next month', 'in 2026-12', ['2026-12']],
    ['last year', 'in 2025', ['2025']],
    ['three months ago', 'in 2026-08', ['2026-08']],
    // Chinese
    ['我昨天说了什么？', '我2026-11-20说了什么？', ['2026-11-20']],
    ['前天', '2026-11-19', ['2026-11-19']],
    ['大前天', '2026-11-18', ['2026-11-18']],
    ['今天', '2026-11-21', ['2026-11-21']],
    ['明天要下雨吗', '2026-11-22要下雨吗', ['2026-11-22']],
    ['后天', '2026-11-23', ['2026-11-23']],
    ['昨晚吃了什么', '2026-11-20晚上吃了什么', ['2026-11-20']],
    ['上周我去了哪里', '2026-11-09那周我去了哪里', ['the week of 2026-11-09']],
    ['上个星期', '2026-11-09那周', ['the week of 2026-11-09']],
    ['本周', '2026-11-16那周', ['the week of 2026-11-16']],
    ['下周', '2026-11-23那周', ['the week of 2026-11-23']],
    ['上周三', '2026-11-11', ['2026-11-11']],
    ['这个星期天', '2026-11-22', ['2026-11-22']],
    ['上个月', '2026-10', ['2026-10']],
    ['下个月', '2026-12', ['2026-12']],
    ['去年', '2025年', ['2025']],
    ['明年', '2027年', ['2027']],
    ['三天前', '2026-11-18', ['2026-11-18']],
    ['十五天后', '2026-12-06', ['2026-12-06']],
    ['两周前', '2026-11-02那周', ['the week of 2026-11-02']],
    ['三个月前', '2026-08', ['2026-08']],
  ])('%j → %j', (input, output, dates) => {
    const result = absolutizeRelativeDates(input, NOW);
    expect(result.text).toBe(output);
    expect(result.resolved.map((r) => r.date)).toEqual(dates);
  });

  it.each([
    ['看一下周围', 'look around (一下 + 周围)'],
    ['马上周末了', 'soon the weekend (马上 + 周末)'],
    ['今后年轻人', '今后 + 年轻人'],
    ['晚上月亮很圆', '晚上 + 月亮'],
    ['We met on Monday', 'a bare weekday is ambiguous'],
    ['The capital of Australia is Canberra.', 'no date at all'],
  ])('leaves %j alone (%s)', (input) => {
    expect(absolutizeRelativeDates(input, NOW)).toEqual({ text: input, resolved: [] });
  });

  it('keeps "下周一起" as next week + together, not next Monday', () => {
    expect(absolutizeRelativeDates('下周一起去吃饭吧', NOW).text).toBe('2026-11-23那周一起去吃饭吧');
  });

  it('reports phrases in order and handles several in one text', () => {
    const result = absolutizeRelativeDates('Yesterday I booked a table for next Friday.', NOW);
    expect(result.text).toBe('On 2026-11-20 I booked a table for 2026-11-27.');
    expect(result.resolved).toEqual([
      { phrase: 'Yesterday', date: '2026-11-20' },
      { phrase: 'next Friday', date: '2026-11-27' },
    ]);
  });

  it('uses UTC: late evening in UTC is still the same UTC day', () => {
    expect(absolutizeRelativeDates('tomorrow', new Date('2026-11-21T23:59:59Z')).resolved[0].date).toBe('2026-11-22');
    expect(absolutizeRelativeDates('yesterday', new Date('2026-03-01T00:00:00Z')).resolved[0].date).toBe('2026-02-28');
  });

  it('crosses month and year boundaries', () => {
    expect(absolutizeRelativeDates('last month', new Date('2026-01-15T00:00:00Z')).resolved[0].date).toBe('2025-12');
    expect(absolutizeRelativeDates('上周', new Date('2026-01-01T00:00:00Z')).resolved[0].date).toBe('the week of 2025-12-22');
  });
});
