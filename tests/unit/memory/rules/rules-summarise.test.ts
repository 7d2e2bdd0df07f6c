import { describe, expect, it } from 'vitest';
import { type SummaryInput, sentenceSalience, summariseExtractive } from '@/lib/memory/rules/summarise';

const user = (content: string): SummaryInput => ({ role: 'user', content });
const assistant = (content: string): SummaryInput => ({ role: 'assistant', content });

/** 26 messages: one personal statement up front, then unrelated Q&A. */
const longEnglish: SummaryInput[] = [
  user('I rewatched Interstellar last night. Christopher Nolan really knows how to direct a space film.'),
  assistant('It is a beautiful film. The docking scene and the score by Hans Zimmer are unforgettable.'),
  user('How do I keep basil fresh?'),
  assistant('Keep basil stems in a glass of water at room temperature, like cut flowers. Do not refrigerate it.'),
  user('How long should a beginner take to run 5k?'),
  assistant('Most beginners finish a 5k in 30 to 40 minutes. A couch-to-5k plan takes about nine weeks.'),
  user('How do I center a div in CSS?'),
  assistant('Use flexbox on the parent: display: flex; justify-content: center; align-items: center.'),
  user('What will the weather be like tomorrow?'),
  assistant('I cannot check live weather, but a local forecast service will tell you.'),
  user('Can you suggest a board game for four players?'),
  assistant('Try Catan or Ticket to Ride. Both work well with four players.'),
  user('How long should I boil an egg for a soft yolk?'),
  assistant('About six and a half minutes in boiling water, then straight into cold water.'),
  user('What is the capital of Australia?'),
  assistant('The capital of Australia is Canberra.'),
  user('How does compound interest work?'),
  assistant(
    'Interest is added to the principal, so each period earns interest on the interest. At 5% a year, 1000 becomes about 1628 after 10 years.',
  ),
  user('How many bones are in the human body?'),
  assistant('An adult human has 206 bones.'),
  user('Give me some names for a bakery.'),
  assistant('Rise & Shine, The Daily Crumb, Flour Power, Knead to Know.'),
  user('Write a haiku about autumn.'),
  assistant('Here is one:\nCrisp leaves drift and fall\nthe maple lets go of red\ncool wind carries them'),
  user('How do I get a coffee stain out of a shirt?'),
  assistant('Blot it, rinse from the back with cold water, then rub in a little dish soap before washing.'),
];

const chinese: SummaryInput[] = [
  user('我叫张三。'),
  assistant('你好，张三！有什么可以帮你的？'),
  user('我最近在看《星际穿越》，特别喜欢里面的配乐。'),
  assistant('《星际穿越》的配乐是汉斯·季默写的，管风琴的部分非常震撼。'),
  user('怎么泡绿茶比较好喝？'),
  assistant('水温八十度左右，泡两三分钟就好。'),
];

const bulletLines = (summary: string) => summary.split('\n').filter((line) => /^- (User|Assistant): /u.test(line));

describe('sentenceSalience', () => {
  it.each<[string, 'user' | 'assistant', 'kept' | 'skipped']>([
    // Kept: first person, names, titles, numbers, dates, preferences, decisions
    ['I rewatched Interstellar last night.', 'user', 'kept'],
    ['Christopher Nolan really knows how to direct a space film.', 'user', 'kept'],
    ['My favourite is The Matrix, then Gattaca.', 'user', 'kept'],
    ['I am allergic to peanuts.', 'user', 'kept'],
    ["I've decided to switch to decaf.", 'user', 'kept'],
    ['My name is Priya.', 'user', 'kept'],
    ['An adult human has 206 bones.', 'assistant', 'kept'],
    ['The capital of Australia is Canberra.', 'assistant', 'kept'],
    ['我叫张三', 'user', 'kept'],
    ['我最近在看《星际穿越》，特别喜欢里面的配乐。', 'user', 'kept'],
    ['《星际穿越》的配乐是汉斯·季默写的。', 'assistant', 'kept'],
    ['我决定下个月搬到上海。', 'user', 'kept'],
    ['水温八十度左右。', 'assistant', 'kept'],
    // Skipped: greetings, filler, plain questions, intros, requests
    ['Hi!', 'user', 'skipped'],
    ['Thanks!', 'user', 'skipped'],
    ['Great question!', 'assistant', 'skipped'],
    ['Let me know if you need anything else.', 'assistant', 'skipped'],
    ['How do I keep basil fresh?', 'user', 'skipped'],
    ['What will the weather be like tomorrow?', 'user', 'skipped'],
    ['Would you like another recipe?', 'assistant', 'skipped'],
    ['Here is one:', 'assistant', 'skipped'],
    ['Give me some names for a bakery.', 'user', 'skipped'],
    ['你好', 'user', 'skipped'],
    ['谢谢！', 'user', 'skipped'],
    ['好的', 'assistant', 'skipped'],
    ['怎么泡绿茶比较好喝？', 'user', 'skipped'],
  ])('%j (%s) is %s', (sentence, role, expected) => {
    const score = sentenceSalience(sentence, role);
    if (expected === 'kept') expect(score).toBeGreaterThanOrEqual(2);
    else expect(score).toBeLessThan(2);
  });

  it('ranks what the user says about themselves above the same words from the assistant', () => {
    expect(sentenceSalience('I love The Matrix.', 'user')).toBeGreaterThan(sentenceSalience('I love The Matrix.', 'assistant'));
  });

  it('ranks a named, dated first-person statement above a generic one', () => {
    expect(sentenceSalience('I rewatched Interstellar last night.', 'user')).toBeGreaterThan(
      sentenceSalience('I went for a walk.', 'user'),
    );
  });
});

describe('summariseExtractive', () => {
  it.each<[string, SummaryInput[], string[]]>([
    [
      'the first 20 of a 26-message English conversation keep the opening statement',
      longEnglish.slice(0, 20),
      ['Christopher Nolan', 'Interstellar'],
    ],
    ['all 26 messages still keep it', longEnglish, ['Christopher Nolan', 'Interstellar']],
    ['Chinese: the name and the title', chinese, ['张三', '星际穿越']],
    [
      'favourites in one message',
      [user("Let's talk 90s sci-fi movies. My favourite is The Matrix, then Gattaca."), assistant('Great picks!')],
      ['The Matrix', 'Gattaca'],
    ],
  ])('%s', (_, messages, mustKeep) => {
    const summary = summariseExtractive(null, messages);
    for (const text of mustKeep) expect(summary).toContain(text);
    expect(bulletLines(summary).length).toBeLessThanOrEqual(24);
  });

  it.each<[string, SummaryInput[], string[]]>([
    [
      'greetings and filler',
      [user('Hi!'), assistant('Hello! How can I help you today?'), user('Thanks!'), assistant('You are welcome!')],
      [],
    ],
    ['thanks in a row', [user('ok thanks'), assistant('Sure!'), user('好的谢谢'), user('Thanks, great, cool!')], []],
    ['Chinese small talk', [user('你好'), assistant('你好！'), user('谢谢'), assistant('不客气')], []],
  ])('skips %s', (_, messages, expected) => {
    expect(bulletLines(summariseExtractive(null, messages))).toEqual(expected);
  });

  it('writes "- User:" and "- Assistant:" bullet lines, each a verbatim slice of its message', () => {
    const summary = summariseExtractive(null, longEnglish.slice(0, 20));
    const lines = summary.split('\n');
    expect(lines[0]).toBe('- User: I rewatched Interstellar last night. Christopher Nolan really knows how to direct a space film.');
    for (const line of lines) {
      expect(line).toMatch(/^- (User|Assistant): /u);
      const body = line.replace(/^- (User|Assistant): /u, '').replace(/…$/u, '');
      expect(longEnglish.some((m) => m.content.includes(body))).toBe(true);
    }
  });

  it('is incremental: the previous summary is the base and stays first', () => {
    const first = summariseExtractive(null, longEnglish.slice(0, 10));
    const second = summariseExtractive(first, longEnglish.slice(10, 20));
    expect(second.startsWith(first)).toBe(true);
    expect(second).toBe(summariseExtractive(null, longEnglish.slice(0, 20)));
  });

  it('keeps user-edited previous text verbatim, free text included', () => {
    const edited =
      'Notes from Sam: prefers short answers.\n- User: I moved to Lisbon in 2024 (corrected by hand)\n- Assistant: whatever I want here';
    const summary = summariseExtractive(edited, chinese);
    expect(summary.startsWith(`${edited}\n`)).toBe(true);
    expect(summary).toContain('张三');
  });

  it('does not repeat lines when the same messages are summarised again', () => {
    const once = summariseExtractive(null, chinese);
    expect(summariseExtractive(once, chinese)).toBe(once);
  });

  it('returns the previous summary unchanged when nothing new is salient', () => {
    expect(summariseExtractive('- User: I live in Oslo.', [user('ok'), assistant('Sure!')])).toBe('- User: I live in Oslo.');
    expect(summariseExtractive(null, [])).toBe('');
  });

  it.each([
    [3, ['- User: I rewatched Interstellar last night.', '- User: My sister is called Anna.', '- User: I work at Acme Corp.']],
    [1, ['- User: I work at Acme Corp.']],
  ])('respects maxLines = %i by dropping the oldest bullet lines first', (maxLines, expected) => {
    const summary = summariseExtractive(
      '- User: I like tea.',
      [user('I rewatched Interstellar last night.'), user('My sister is called Anna.'), user('I work at Acme Corp.')],
      {
        maxLines,
      },
    );
    expect(summary.split('\n')).toEqual(expected);
  });

  it('drops old bullets before free text a person wrote', () => {
    const previous = 'Sam edited this: call me Sam.\n- User: I like tea.\n- User: I have a cat named Miso.';
    const summary = summariseExtractive(previous, [user('I work at Acme Corp.')], { maxLines: 2 });
    expect(summary.split('\n')).toEqual(['Sam edited this: call me Sam.', '- User: I work at Acme Corp.']);
  });

  it('gives a user message two lines and a reply one, unless maxLinePerMessage says otherwise', () => {
    const message = user('I live in Oslo. The weather is grey. My brother Erik lives in Bergen. I work as a nurse at Ullevål.');
    const two = bulletLines(summariseExtractive(null, [message]));
    expect(two.length).toBe(2);
    expect(two.join('\n')).toContain('Erik');
    expect(bulletLines(summariseExtractive(null, [message], { maxLinePerMessage: 1 })).length).toBe(1);
    const reply = assistant('Oslo has the Munch Museum. Bergen has the Bryggen wharf. Both are 7 hours apart by train.');
    expect(bulletLines(summariseExtractive(null, [reply])).length).toBe(1);
  });

  it('clips very long sentences with an ellipsis', () => {
    const long = `I moved to Lisbon in 2024 and ${'really '.repeat(60)}love it.`;
    const [line] = bulletLines(summariseExtractive(null, [user(long)]));
    expect(line.endsWith('…')).toBe(true);
    expect(line.length).toBeLessThanOrEqual(300);
    expect(long.includes(line.replace(/^- User: /u, '').replace(/…$/u, ''))).toBe(true);
  });

  it('is deterministic', () => {
    expect(summariseExtractive(null, longEnglish)).toBe(summariseExtractive(null, longEnglish));
  });
});

describe('summariseExtractive keeps what the user said', () => {
  const userLines = (summary: string) => summary.split('\n').filter((line) => line.startsWith('- User: '));
  const replyLines = (summary: string) => summary.split('\n').filter((line) => line.startsWith('- Assistant: '));

  it.each<[string, SummaryInput[], string[]]>([
    [
      'English: statements, a request and a question, with replies that only echo them',
      [
        user('My daughter Ines starts violin lessons in January.'),
        assistant('Noted: "My daughter Ines starts violin lessons in January." Ask me about it later.'),
        user('Can you suggest a practice routine for a seven-year-old?'),
        assistant('I do not know yet: nothing you said answers "Can you suggest a practice routine for a seven-year-old?".'),
        user('We rent the violin from a shop on Rua Augusta for 15 euros a month.'),
        assistant('You said: "We rent the violin from a shop on Rua Augusta for 15 euros a month."'),
        user('How long should she practise each day?'),
        assistant('The closest thing I have is: "My daughter Ines starts violin lessons in January."'),
      ],
      [
        'Ines starts violin lessons in January',
        'suggest a practice routine for a seven-year-old',
        'Rua Augusta for 15 euros a month',
        'How long should she practise each day?',
      ],
    ],
    [
      'Chinese: what the user said, in their words, with echoing replies',
      [
        user('我在准备十二月的教师资格考试。'),
        assistant('记下了：“我在准备十二月的教师资格考试。”'),
        user('帮我列一个每周的复习计划。'),
        assistant('我还不知道：你说过的话里没有能回答“帮我列一个每周的复习计划。”的内容。'),
        user('我每天晚上只有九点以后才有空。'),
        assistant('记下了：“我每天晚上只有九点以后才有空。”'),
      ],
      ['十二月的教师资格考试', '每周的复习计划', '九点以后才有空'],
    ],
  ])('%s', (_, messages, said) => {
    const summary = summariseExtractive(null, messages);
    for (const words of said) expect(userLines(summary).join('\n')).toContain(words);
    // A reply that only repeats the user's words adds no line.
    expect(replyLines(summary)).toEqual([]);
  });

  it('keeps what a reply adds beside an echo, once, and drops its repeated sign-off', () => {
    const signOff = 'Answers here come from Tutor Bot 3 on this laptop.';
    const summary = summariseExtractive(null, [
      user('I run the Porto half marathon on 9 March.'),
      assistant(`Noted: "I run the Porto half marathon on 9 March." The course is flat along the Douro river. ${signOff}`),
      user('My best time so far is 1 hour 52 minutes.'),
      assistant(`Noted: "My best time so far is 1 hour 52 minutes." ${signOff}`),
      user('What pace do I need for 1 hour 45?'),
      assistant(`About 4 minutes 58 seconds per kilometre. ${signOff}`),
    ]);
    expect(userLines(summary)).toHaveLength(3);
    expect(summary).toContain('flat along the Douro river');
    expect(summary).toContain('4 minutes 58 seconds per kilometre');
    expect(summary.split(signOff).length - 1).toBeLessThanOrEqual(1);
    expect(summary).not.toContain('- Assistant: Noted');
  });

  it("over the cap drops replies first, then the user's questions, and keeps the user's statements longest", () => {
    const messages = [
      user('I keep bees on a rooftop in Kreuzberg.'),
      assistant('Rooftop hives in Berlin often face the prevailing westerly wind.'),
      user('Which flowers do bees like in July?'),
      assistant('Lime trees flower in July and bees love them.'),
      user('My neighbour Jonas helps me harvest twice a year.'),
    ];
    const three = summariseExtractive(null, messages, { maxLines: 3 });
    expect(replyLines(three)).toEqual([]);
    expect(userLines(three)).toHaveLength(3);
    const two = summariseExtractive(null, messages, { maxLines: 2 });
    expect(two.split('\n')).toEqual([
      '- User: I keep bees on a rooftop in Kreuzberg.',
      '- User: My neighbour Jonas helps me harvest twice a year.',
    ]);
  });

  it('is the same built at once or in pieces, with echoes', () => {
    const messages: SummaryInput[] = [
      user('我养了一只叫豆豆的柯基。'),
      assistant('记下了：“我养了一只叫豆豆的柯基。”'),
      user('豆豆对鸡肉过敏。'),
      assistant('记下了：“豆豆对鸡肉过敏。”'),
    ];
    const pieces = summariseExtractive(summariseExtractive(null, messages.slice(0, 2)), messages.slice(2));
    expect(pieces).toBe(summariseExtractive(null, messages));
    expect(pieces.split('\n')).toEqual(['- User: 我养了一只叫豆豆的柯基。', '- User: 豆豆对鸡肉过敏。']);
  });
});
