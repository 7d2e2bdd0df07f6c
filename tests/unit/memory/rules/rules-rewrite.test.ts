import { describe, expect, it } from 'vitest';
import { acknowledgement } from '@/lib/llm/offline-answer';
import { absolutizeRelativeDates } from '@/lib/memory/rules/relative-dates';
import { detectRewriteTrigger, type RecentTurn, rewriteOffline } from '@/lib/memory/rules/rewrite';

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
    ['Who was that director we talked about earlier?', 1, true, 'reference: "that"'],
    ['When was it released?', 1, true, 'reference: "it"'],
    ['What else did he direct?', 2, true, 'reference: "he"'],
    ['Tell me more about that.', 1, true, 'reference: "that"'],
    ['Who directed the latter?', 1, true, 'reference: "the latter"'],
    ['它是哪一年上映的？', 1, true, 'reference: "它"'],
    ['那部电影是谁导演的？', 1, true, 'reference: "那"'],
    ['Who wrote that book?', 1, true, 'reference: "that"'],
    ['Who narrated that audiobook?', 1, true, 'reference: "that"'],
    ['这游戏适合两个人玩吗？', 1, true, 'reference: "这"'],
    ['Do you believe that Lena moved abroad?', 1, false, 'standalone'],
    ['What did Marisol bake for her nephew?', 2, false, 'standalone'],
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

/** The query carries the terms after the question, in brackets: ", " in English, "、" in Chinese. */
function expectCarried(recent: RecentTurn[], question: string, terms: string[], displays = terms) {
  const result = rewriteOffline(question, recent, NOW);
  expect(result.terms).toEqual(terms);
  const zh = /[\u4e00-\u9fff]/u.test(question);
  expect(result.query).toBe(zh ? `${question}（${displays.join('、')}）` : `${question} (${displays.join(', ')})`);
}

describe("rewriteOffline: carrying the salient terms of the user's turns", () => {
  it.each<[string, RecentTurn[], string, string[], string[]?]>([
    // [label, recent, question, terms newest first, as displayed]
    ["zh 它 → the user's title, across the more recent green tea", zhMovieAndTea, '它是哪一年上映的？', ['星际穿越'], ['《星际穿越》']],
    ['zh 那部电影 → the title', zhMovieAndTea, '那部电影是谁导演的？', ['星际穿越'], ['《星际穿越》']],
    [
      'en "it" → the names of the user\'s film turn, newest mention first',
      enMovieAndBasil,
      'When was it released?',
      ['Christopher Nolan', 'Interstellar'],
    ],
    ['en "he"', enMovieAndBasil, 'What else did he direct?', ['Christopher Nolan', 'Interstellar']],
    ['en the former', enFavourites, 'When did the former come out?', ['The Matrix']],
    ['en the latter', enFavourites, 'Who directed the latter?', ['Gattaca']],
    ['en "she" → the names the user gave', enPartner, 'What does she do for work?', ['Lisbon', 'Anna Keller']],
    ["en short question → named things first, then the user's own", enFavourites, 'why?', ['Gattaca', 'The Matrix', 'favourite']],
  ])('%s', (_, recent, question, terms, displays) => expectCarried(recent, question, terms, displays));

  it('leaves the question alone when there is nothing to point at', () => {
    expect(rewriteOffline('Why is that?', [{ role: 'user', content: 'hello' }], NOW)).toEqual({
      query: 'Why is that?',
      terms: [],
      datesResolved: [],
    });
  });

  it('skips terms already named in the question', () => {
    expect(rewriteOffline('What about Gattaca?', enFavourites, NOW).terms).toEqual(['The Matrix', 'favourite']);
  });

  it('resolves dates and carries terms in one query', () => {
    const result = rewriteOffline('What did I say about it yesterday?', enMovieAndBasil, NOW);
    expect(result).toEqual({
      query: 'What did I say about it on 2026-11-20? (Christopher Nolan, Interstellar)',
      terms: ['Christopher Nolan', 'Interstellar'],
      datesResolved: ['yesterday → 2026-11-20'],
    });
  });

  it('is pure: the same input gives the same output and the inputs are not changed', () => {
    const recent = structuredClone(zhMovieAndTea);
    expect(rewriteOffline('它是哪一年上映的？', recent, NOW)).toEqual(rewriteOffline('它是哪一年上映的？', recent, NOW));
    expect(recent).toEqual(zhMovieAndTea);
  });
});

// What the offline model really replies to a statement.
const noted = acknowledgement;

const enDirectorThenNeighbour: RecentTurn[] = [
  { role: 'user', content: 'Last weekend I went to a retrospective of films directed by Agnès Varda.' },
  { role: 'assistant', content: 'Lovely! Jacques Demy, her husband, made musicals like The Umbrellas of Cherbourg.' },
  { role: 'user', content: 'My neighbour Tomasz Wójcik offered to water the plants while I travel.' },
  { role: 'assistant', content: noted('My neighbour Tomasz Wójcik offered to water the plants while I travel.') },
];
const enAnimeNight: RecentTurn[] = [
  { role: 'user', content: 'We finally watched Spirited Away with the kids tonight.' },
  { role: 'assistant', content: noted('We finally watched Spirited Away with the kids tonight.') },
];
const enNovelOnly: RecentTurn[] = [
  { role: 'user', content: 'I am reading a slow novel about a lighthouse keeper on a remote island.' },
  { role: 'assistant', content: 'That sounds like something Virginia Woolf would have loved; Katherine Mansfield too.' },
];
const enTwoOptions: RecentTurn[] = [
  { role: 'user', content: 'For the flight, should I pick Arrival or Dune?' },
  { role: 'assistant', content: 'Both are by Denis Villeneuve; Sicario and Prisoners are worth a look as well.' },
];
const zhDirectorThenRoommate: RecentTurn[] = [
  { role: 'user', content: '前阵子我看了维姆·文德斯导演的《完美的日子》，很安静的一部片子。' },
  { role: 'assistant', content: '片中的歌来自卢·里德，主演是役所广司。' },
  { role: 'user', content: '我的室友叫王磊，他最近迷上了攀岩。' },
  { role: 'assistant', content: noted('我的室友叫王磊，他最近迷上了攀岩。') },
];
const zhBookOnly: RecentTurn[] = [
  { role: 'user', content: '这周我在读《百年孤独》，里面的人名太容易搞混了。' },
  { role: 'assistant', content: noted('这周我在读《百年孤独》，里面的人名太容易搞混了。') },
];
const enStillOnTheFilm: RecentTurn[] = [
  { role: 'user', content: 'Yesterday I rewatched Wings of Desire on a rainy evening.' },
  { role: 'assistant', content: noted('Yesterday I rewatched Wings of Desire on a rainy evening.') },
  { role: 'user', content: 'Honestly it still gives me chills.' },
  { role: 'assistant', content: noted('Honestly it still gives me chills.') },
];
const enStarter: RecentTurn[] = [
  { role: 'user', content: 'My sourdough starter smells like nail polish this morning.' },
  { role: 'assistant', content: noted('My sourdough starter smells like nail polish this morning.') },
];
const zhStillOnTheBook: RecentTurn[] = [
  { role: 'user', content: '我刚读完《额尔古纳河右岸》。' },
  { role: 'assistant', content: noted('我刚读完《额尔古纳河右岸》。') },
  { role: 'user', content: '它的结尾让我难过了好几天。' },
  { role: 'assistant', content: noted('它的结尾让我难过了好几天。') },
];
const zhSelfIntro: RecentTurn[] = [
  { role: 'user', content: '我叫陈晓，在一家做机器人的公司上班。' },
  { role: 'assistant', content: noted('我叫陈晓，在一家做机器人的公司上班。') },
];

describe("rewriteOffline: only the user's own words are carried", () => {
  it.each<[string, RecentTurn[], string, string[], string[]?]>([
    // [label, recent, question, terms newest first, as displayed]
    [
      'en "that director" → the user\'s people, not the assistant\'s',
      enDirectorThenNeighbour,
      'Who was that director I mentioned?',
      ['Tomasz Wójcik', 'neighbour', 'Agnès Varda'],
    ],
    [
      'en "he" → only named people, newest first',
      enDirectorThenNeighbour,
      'Can he feed the cat as well?',
      ['Tomasz Wójcik', 'Agnès Varda'],
    ],
    ['en "it" → the user\'s film, not the boilerplate', enAnimeNight, 'Who directed it?', ['Spirited Away']],
    ['en short question → the user\'s film, not "API"', enAnimeNight, 'Really?', ['Spirited Away']],
    ['en "that director" → the film the user named', enAnimeNight, 'Who was that director again?', ['Spirited Away']],
    ["en the latter → from the user's pair, not the assistant's", enTwoOptions, 'How long is the latter?', ['Dune']],
    ["zh 那位导演 → the user's people, newest first", zhDirectorThenRoommate, '那位导演还拍过什么？', ['王磊', '维姆·文德斯']],
    ['zh 他 → the nearest person the user named', zhDirectorThenRoommate, '他多大了？', ['王磊', '维姆·文德斯']],
    ['zh short question → the user\'s book, not "API"', zhBookOnly, '为什么？', ['百年孤独'], ['《百年孤独》']],
    [
      'en plain "it" → the film, across a user turn that still talks about it',
      enStillOnTheFilm,
      'Is it on any streaming service?',
      ['Wings of Desire'],
    ],
    ['en plain "it" → the user\'s own thing', enStarter, 'Should I throw it away?', ['sourdough starter']],
    [
      'zh 它 → the book, across a user turn that still talks about it',
      zhStillOnTheBook,
      '它适合中学生读吗？',
      ['额尔古纳河右岸'],
      ['《额尔古纳河右岸》'],
    ],
  ])('%s', (_, recent, question, terms, displays) => expectCarried(recent, question, terms, displays));

  it.each<[string, RecentTurn[], string]>([
    // [label, recent, question]: nothing fits in the user's own turns, so nothing is carried
    ['zh 我叫什么？ is about the user', zhSelfIntro, '我叫什么？'],
    ['zh 我几岁？ is about the user', zhBookOnly, '我几岁？'],
    ['zh 我住哪？ is about the user', zhDirectorThenRoommate, '我住哪？'],
    ['en "Who am I?" is about the user', enAnimeNight, 'Who am I?'],
    ['en "What\'s my name?" is about the user', enAnimeNight, "What's my name?"],
    ['en "My birthday?" is about the user', enDirectorThenNeighbour, 'My birthday?'],
    ["zh 他 → the user's own name is not a third person", zhSelfIntro, '他是做什么的？'],
    ['zh 他 → never a title; only the assistant named a person', zhMovieAndTea, '他还写过什么？'],
  ])('%s → unchanged', (_, recent, question) => {
    expect(rewriteOffline(question, recent, NOW)).toEqual({ query: question, terms: [], datesResolved: [] });
  });

  it('treats a short question about the user as standalone, not as a reference', () => {
    expect(detectRewriteTrigger('我叫什么？', 2)).toEqual({ needed: false, reason: 'standalone' });
    expect(detectRewriteTrigger('Who am I?', 2)).toEqual({ needed: false, reason: 'standalone' });
  });

  it('still resolves relative dates when no term is carried', () => {
    expect(rewriteOffline('我昨天说过他什么？', zhMovieAndTea, NOW)).toEqual({
      query: '我2026-11-20说过他什么？',
      terms: [],
      datesResolved: ['昨天 → 2026-11-20'],
    });
  });

  it('ignores the assistant turns entirely: dropping them changes nothing', () => {
    for (const recent of [enDirectorThenNeighbour, enAnimeNight, enTwoOptions, zhDirectorThenRoommate, zhBookOnly]) {
      const userOnly = recent.filter((t) => t.role === 'user');
      for (const question of [
        'Who was that director I mentioned?',
        'Why?',
        'When was it released?',
        '他多大了？',
        '为什么？',
        'Who directed the latter?',
      ]) {
        expect(rewriteOffline(question, recent, NOW)).toEqual(rewriteOffline(question, userOnly, NOW));
      }
    }
  });
});

// Own words: references asked with verbs and nouns no rule lists, to names, titles and products of
// kinds the fixtures do not use. Each must carry the term the question leans on.
const said = (...lines: string[]): RecentTurn[] =>
  lines.flatMap((content) => [
    { role: 'user' as const, content },
    { role: 'assistant' as const, content: noted(content) },
  ]);

describe('rewriteOffline: own-words references carry what they lean on', () => {
  it.each<[string, RecentTurn[], string, string]>([
    // [label, recent, question, a term the query must carry]
    ['en a novel, "penned"', said("I'm halfway through Middlemarch and loving the slow pace."), 'Who penned that novel?', 'Middlemarch'],
    ['en a dog, "groom him"', said('We adopted a greyhound named Biscuit from the shelter.'), 'How often should I groom him?', 'Biscuit'],
    [
      'en a laptop with digits, "its battery"',
      said('My laptop is a ThinkPad X1 Carbon and the battery barely lasts two hours.'),
      'Can I swap its battery myself?',
      'ThinkPad X1 Carbon',
    ],
    [
      'en a quoted song, "sang that"',
      said('My daughter keeps humming "Baby Beluga" at breakfast.'),
      'Who sang that originally?',
      'Baby Beluga',
    ],
    [
      'en a product starting lower case, the latter',
      said("I'm choosing between the Kindle Scribe and a reMarkable 2."),
      'Does the latter need a subscription?',
      'reMarkable 2',
    ],
    [
      'en a person across an unrelated turn',
      said('My old flatmate Priyanka Rao just opened a bakery in Leeds.', 'How many grams are in a cup of flour?'),
      'What did she name the place?',
      'Priyanka Rao',
    ],
    ['zh 《红楼梦》, 一共有多少回', said('上个月我在重温《红楼梦》，越看越有味道。'), '它一共有多少回？', '红楼梦'],
    ['zh a cousin by name, 她读什么专业', said('我表姐叫林芳，打算去新西兰读研。'), '她读什么专业？', '林芳'],
    ['zh a camera model with digits, 那台相机', said('我新买的相机是富士X100V，拍街景特别好看。'), '那台相机的电池能用多久？', 'X100V'],
    [
      'zh a game in 「」, 这游戏 without a classifier',
      said('我最近迷上了一款游戏叫「星露谷物语」。'),
      '这游戏适合两个人玩吗？',
      '星露谷物语',
    ],
    [
      'zh a transliterated name across an unrelated turn',
      said('我在听坂本龙一和布莱恩·伊诺的合作专辑。', '明天会降温吗？'),
      '他后来还出过什么？',
      '布莱恩·伊诺',
    ],
    [
      'zh a phone model, Han name and digits, 它的屏幕',
      said('我一直用着荣耀90，最近有点卡。', '周末适合去哪里爬山？'),
      '它的屏幕能换吗？',
      '荣耀90',
    ],
    ["zh the user's own thing after 我的, 它多大了", said('我的鹦鹉今天学会说你好了。'), '它一般能活多少年？', '鹦鹉'],
    [
      "zh the user's thing after 我家的, split by the segmenter",
      said('我家的洗衣机昨天漏水了。', '推荐一部纪录片。'),
      '它保修期多久？',
      '洗衣机',
    ],
  ])('%s', (_, recent, question, term) => {
    expect(detectRewriteTrigger(question, 1).needed).toBe(true);
    const { query, terms } = rewriteOffline(question, recent, NOW);
    expect(terms).toContain(term);
    expect(query).toContain(term);
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
    // English weekdays as chrono reads them: last = most recent before today, next and this = the coming one
    ['last Monday', 'on 2026-11-16', ['2026-11-16']],
    ['last Saturday', 'on 2026-11-14', ['2026-11-14']],
    ['next Monday', 'on 2026-11-23', ['2026-11-23']],
    ['this Friday', 'on 2026-11-27', ['2026-11-27']],
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

describe('rewriteOffline: with nothing named, the turn the question leans on goes with it', () => {
  const afterUserTurns = (...userTurns: string[]): RecentTurn[] =>
    userTurns.flatMap((content) => [
      { role: 'user' as const, content },
      { role: 'assistant' as const, content: 'Sounds good.' },
    ]);
  it.each<[string, RecentTurn[], string, string]>([
    // [label, recent, question, what the query must now hold]
    ['zh title without marks, 它', afterUserTurns('我这周在看三体，刚读到第二部'), '它的作者还写过什么？', '三体'],
    ['zh song without marks, 这首', afterUserTurns('最近在听周杰伦的晴天'), '这首歌是哪年发的？', '晴天'],
    ['zh place, 那里', afterUserTurns('我上周去了西湖'), '那里门票多少钱？', '西湖'],
    ['zh film with a number, the whole name', afterUserTurns('昨晚看了流浪地球2，特效很震撼'), '这部片的导演是谁？', '流浪地球2'],
    [
      'en board game in lower case, "it"',
      afterUserTurns('we started playing wingspan on friday nights'),
      'How long does a round of it take?',
      'wingspan',
    ],
    [
      'en book in lower case, "that"',
      afterUserTurns('I picked up a copy of the hobbit at a flea market.'),
      'When was that first published?',
      'the hobbit',
    ],
    [
      'en a thing of the user\'s, "it"',
      afterUserTurns('The tiles behind the sink keep cracking in winter.'),
      'Can I fix it myself?',
      'tiles behind the sink',
    ],
    ['zh a person no rule names, 他', afterUserTurns('我特别喜欢宫崎骏的电影。'), '他最新的一部叫什么？', '宫崎骏'],
    [
      'en "she" with only the assistant naming people: the user\'s turn, where the search finds them',
      enNovelOnly,
      'What else did she write?',
      'lighthouse keeper',
    ],
  ])('%s', (_, recent, question, held) => {
    const { query } = rewriteOffline(question, recent, NOW);
    expect(query.startsWith(question)).toBe(true);
    expect(query).toContain(held);
  });

  it('carries only the last sentences of a long turn, and skips small talk after it', () => {
    const recent = afterUserTurns(
      `${'We spent most of the summer repainting the fence and arguing about colours. '.repeat(3)}In the end we bought a used canoe.`,
      'thanks!',
    );
    const { query } = rewriteOffline('Where should I store it?', recent, NOW);
    expect(query).toContain('used canoe');
    expect(query.length).toBeLessThan('Where should I store it?'.length + 200);
  });
});
