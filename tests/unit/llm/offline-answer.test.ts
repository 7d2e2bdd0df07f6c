import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '@/lib/llm/local-embedder';
import { acknowledgement, answerFromContext, NO_ANSWER } from '@/lib/llm/offline-answer';
import { likenessBy } from '@/lib/llm/offline-model';
import { createSentenceEncoder, sentenceEncoderPool } from '@/lib/llm/sentence-encoder';
import { memoryLine, SECTION_HEADERS } from '@/lib/memory/memory-line';
import { correctedBy, FORGOTTEN } from '@/lib/memory/redaction-marks';

// The offline model judges with the sentence encoder here (OFFLINE_EMBEDDER=sentence-encoder); a block below uses the default hashing embedder.
const similarity = likenessBy(createSentenceEncoder());
afterAll(() => sentenceEncoderPool.close());

type Turn = ['user' | 'assistant', string];
const facts = (...lines: string[]) => SECTION_HEADERS.facts + lines.map((line, i) => memoryLine(i + 1, line)).join('');
const exchanges = (first: number, ...lines: string[]) =>
  SECTION_HEADERS.episodes + lines.map((line, i) => memoryLine(first + i, line)).join('');
const prompt = (system: string, ...turns: Turn[]): LanguageModelV4Prompt => [
  { role: 'system', content: `You are memlens.\n${system}` },
  ...turns.map(([role, text]) => ({ role, content: [{ type: 'text' as const, text }] })),
];
const reply = (system: string, ...turns: Turn[]) => answerFromContext(prompt(system, ...turns), similarity);

describe('the offline model answers from the best evidence', () => {
  it('quotes the fact that answers, not an earlier exchange in which nothing was answered', async () => {
    const text = await reply(
      facts('I rent a flat in Ghent now (location, current since 2026-10-02)') +
        exchanges(2, `(2026-09-30) User: Which town do I live in? / Assistant: ${NO_ANSWER.en}`),
      ['user', 'Which town do I live in?'],
    );
    expect(text).toContain('I rent a flat in Ghent now');
    expect(text).toContain('[1]');
    expect(text).not.toContain(NO_ANSWER.en);
    expect(text).not.toContain('[2]');
  });

  it('finds an answer told in other words than the question', async () => {
    const text = await reply(
      facts('Friends shorten my name to Bex (name, current since 2026-11-01)', 'I keep two rabbits (pet, current since 2026-11-01)'),
      ['user', 'What do people call me?'],
    );
    expect(text).toContain('Bex');
  });

  it('keeps a value whole, quotes and all', async () => {
    const novel = 'My favourite novel is "The Left Hand of Darkness" by Ursula K. Le Guin, read three times';
    const text = await reply(facts(`${novel} (like, current since 2026-11-01)`), ['user', 'Which book do I love most?']);
    expect(text).toContain(novel);
  });

  it('takes a fact as current over an older statement of the same kind', async () => {
    const text = await reply(
      facts('We moved to Utrecht in August (location, current since 2026-08-01; replaces an earlier location)') +
        exchanges(2, '(2026-03-02) User: I live in Leiden with my partner. / Assistant: Nice city.'),
      ['user', 'Where is home for me these days?'],
    );
    expect(text).toContain('Utrecht');
    expect(text).not.toContain('Leiden');
  });

  it("follows a reply that asked back to the user's answer in the next exchange", async () => {
    const text = await reply(
      exchanges(
        1,
        '(2026-11-10) User: We finally chose paint for the hallway. / Assistant: Which colour did you go for?',
        '(2026-11-10) User: A deep teal called Hague Blue, two coats. / Assistant: Bold choice.',
      ),
      ['user', 'What colour did we pick for the hallway?'],
    );
    expect(text).toContain('Hague Blue');
  });

  it('reads what "it" points at from the recent turns', async () => {
    const text = await reply(
      '',
      ['user', 'I just started reading Piranesi on the train.'],
      ['assistant', 'Got it.'],
      ['user', 'How do I get candle wax out of a tablecloth?'],
      ['assistant', 'Iron it between paper towels.'],
      ['user', 'Is it a long book?'],
    );
    expect(text).toContain('Piranesi');
  });

  it('answers a request as it answers a question', async () => {
    const text = await reply(facts("I've been pescatarian since the summer (diet, current since 2026-07-01)"), [
      'user',
      'Put together a lunch menu for me.',
    ]);
    expect(text).toContain('pescatarian');
  });

  it('reads a corrected part as the correction and never quotes a forgotten one', async () => {
    const text = await reply(
      '',
      ['user', `${correctedBy('My studio is in Marseille now.')} ${FORGOTTEN}`],
      ['assistant', 'Got it.'],
      ['user', 'Which city is my studio in?'],
    );
    expect(text).toContain('"My studio is in Marseille now."');
    expect(text).not.toContain('corrected by');
    expect(text).not.toContain(FORGOTTEN);
  });

  it('dates what it quotes from an earlier exchange', async () => {
    const text = await reply(
      exchanges(1, '(2025-05-17) User: Got my motorbike licence this morning, passed on the first try! / Assistant: Congratulations!'),
      ['user', 'When did I get my motorbike licence?'],
    );
    expect(text).toContain('2025-05-17');
  });
});

// With the default hashing embedder, which matches words only: the kind of fact a question names still finds it.
describe('the offline model on the hashing embedder', () => {
  const byWords = likenessBy(createLocalEmbedder(512));
  it.each([
    ['Remind me of my job?', 'I have been a dental hygienist for ten years (work, current since 2026-11-01)', 'dental hygienist'],
    ['我的职业是什么？', '我现在在一家旧书店当店长 (work, current since 2026-11-01)', '旧书店'],
    ['Which place is my home now?', 'We settled in Tromsø after the winter (location, current since 2026-11-01)', 'Tromsø'],
  ])('answers "%s" from the fact of the kind it names', async (question, fact, value) => {
    const text = await answerFromContext(
      prompt(facts(fact, 'I collect vinyl records (like, current since 2026-11-01)'), ['user', question]),
      byWords,
    );
    expect(text.startsWith('Nothing')).toBe(false);
    expect(text).toContain(value);
    expect(text).toContain('[1]');
  });
});

describe('whom a question asks about, and what is over (hashing embedder)', () => {
  const byWords = likenessBy(createLocalEmbedder(512));
  const answer = (system: string, question: string) => answerFromContext(prompt(system, ['user', question]), byWords);

  it.each([
    [
      'Which city does my brother live in?',
      '(2026-10-01) User: I live in Dundee, a grey city where it rains daily. / Assistant: Nice.',
      '(2026-10-02) User: My brother is in Lagos now, where it is hot daily. / Assistant: Oof.',
      'Lagos',
    ],
    [
      '我哥哥住在哪个城市？',
      '(2026-10-01) User: 我住在无锡这座城市，最近天天加班。 / Assistant: 注意休息。',
      '(2026-10-02) User: 我哥在厦门，他那边天天晒太阳。 / Assistant: 真羡慕。',
      '厦门',
    ],
  ])('a question about someone else is answered by what was said of them: %s', async (question, own, theirs, value) => {
    const text = await answer(exchanges(1, own, theirs), question);
    expect(text).toContain(value);
    expect(text).not.toContain('[1]');
  });

  it("never gives someone else's statement as the answer about the user", async () => {
    const text = await answer(
      exchanges(
        1,
        '(2026-10-01) User: The tram strike here in Grenoble is driving me mad. / Assistant: That sounds stressful.',
        '(2026-10-02) User: My aunt lives in Seville and keeps inviting me over. / Assistant: Lovely.',
      ),
      'Where do I live?',
    );
    expect(text).not.toContain('Seville');
  });

  it('a question naming someone is answered by what names them', async () => {
    const text = await answer(
      facts('I sell insurance and quarter-end targets are brutal (work, current since 2026-10-01)') +
        exchanges(
          2,
          '(2026-10-03) User: Suggest a card game for a big group? / Assistant: Werewolf works well for bigger groups.',
          '(2026-10-02) User: My old classmate Ravindra repairs church organs, and claims my line of work is duller, which is fair. / Assistant: What a rare trade.',
        ),
      'What does Ravindra do for work?',
    );
    expect(text).toContain('repairs church organs');
    expect(text).not.toContain('Werewolf');
  });

  it('a pronoun for someone the user named is answered from what names them', async () => {
    const text = await answerFromContext(
      prompt(
        facts('我很迷诺兰的电影 (like, current since 2026-10-01)'),
        ['user', '我很迷诺兰的电影。'],
        ['assistant', '他的叙事很特别。'],
        ['user', '他拍的第一部长片叫什么？'],
      ),
      byWords,
    );
    expect(text).toContain('诺兰');
  });

  it('a statement a later one ends is no answer', async () => {
    const text = await answer(
      exchanges(
        1,
        '(2026-09-01) User: I work at the post office sorting parcels. / Assistant: Busy job.',
        '(2026-10-20) User: I quit my job last week. Taking some time off now. / Assistant: Enjoy the break.',
      ),
      'Where do I work?',
    );
    expect(text).not.toContain('post office');
  });
});

describe('the offline model says little when there is little to say', () => {
  it.each([
    ['I took the early ferry to Vlieland this morning.', 'Got it.'],
    ['今天早上我坐最早的一班渡轮去了鼓浪屿。', '好的，记下了。'],
  ])('acknowledges a statement briefly, without echoing it: %s', async (statement, expected) => {
    expect(await reply('', ['user', statement])).toBe(expected);
    expect(acknowledgement(statement)).toBe(expected);
  });

  it.each([
    ['What is the name of my dentist?', NO_ANSWER.en],
    ['我的牙医叫什么名字？', NO_ANSWER.zh],
  ])('says in one short sentence that nothing it was told answers: %s', async (question, expected) => {
    expect(await reply('', ['user', question])).toBe(expected);
  });

  it('owns up first when nothing alike answers, then shows the closest thing memory holds', async () => {
    const text = await reply(facts('I keep bees on the roof of our building (statement, current since 2026-11-01)'), [
      'user',
      'Which dentist do I go to?',
    ]);
    expect(text.startsWith("Nothing you've told me answers that directly, but you told me:")).toBe(true);
    expect(text).toContain('[1]');
  });

  it('carries no disclaimer and no word about keys or setup', async () => {
    const text = await reply(facts('I work nights at a bakery (work, current since 2026-11-01)'), ['user', 'Where do I work?']);
    expect(text).not.toMatch(/offline|API key|OPENAI|configure/iu);
  });
});

// Seeded: every reply that cites [n] quotes that item's words whole, whatever the items and the question.
describe('citations quote whole items (randomized)', () => {
  const words = 'harbour violin cedar lantern quarry meadow saffron glacier pottery ferry walnut orchard'.split(' ');
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  it('holds for 40 seeded contexts', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const pick = () => words[Math.floor(next() * words.length)];
      const items = Array.from({ length: 1 + Math.floor(next() * 4) }, () => `I own a ${pick()} ${pick()} near the ${pick()}`);
      const question = `Tell me about my ${pick()}?`;
      const text = await reply(facts(...items.map((item) => `${item} (statement, current since 2026-11-01)`)), ['user', question]);
      for (const match of text.matchAll(/\[(\d+)\]/gu)) {
        const item = items[Number(match[1]) - 1];
        expect(text, `seed ${seed}: ${JSON.stringify({ items, question, text })}`).toContain(item);
      }
    }
  });
});

// What a person would accept: the item that answers alone; every item for a list; the original, never a reply's copy of it.
describe('the offline model answers precisely', () => {
  const cites = (text: string) => [...text.matchAll(/\[(\d+)\]/gu)].map((m) => Number(m[1]));

  it('quotes only the item that answers, not others that share its words', async () => {
    const text = await reply(
      facts(
        'My partner Ilario teaches at a music school (partner, current since 2026-10-01)',
        'I repair clocks for a living (work, current since 2026-10-01)',
        'My partner and I are saving for a canal boat (plan, current since 2026-10-01)',
      ),
      ['user', 'What is my partner called?'],
    );
    expect(cites(text)).toEqual([1]);
    expect(text).toContain('Ilario');
  });

  it('quotes every item for a question asking for all of a kind', async () => {
    const text = await reply(
      exchanges(
        1,
        '(2026-10-02) User: Back from Slovenia, the lakes were unreal. / Assistant: Sounds lovely.',
        '(2026-10-09) User: Booked flights, I visited Morocco last spring and want to go back. / Assistant: Great.',
        '(2026-10-15) User: My boss keeps scheduling calls at lunch. / Assistant: Annoying.',
      ),
      ['user', 'Which countries have I been to?'],
    );
    expect(text).toContain('Slovenia');
    expect(text).toContain('Morocco');
    expect(cites(text)).not.toContain(3);
  });

  it("takes a pet's statement as the answer to a question about the user's pet", async () => {
    const text = await reply(facts('Our new kitten is a tabby called Pistachio (pet, current since 2026-10-01)'), [
      'user',
      'What kind of cat do we have?',
    ]);
    expect(text).toContain('Pistachio');
  });

  it('never quotes a statement a current fact outdates, however many words it shares with the question', async () => {
    const text = await reply(
      facts("Change of plan: I'm flying to Gdansk instead (plan, current since 2026-10-05)") +
        exchanges(2, "(2026-10-01) User: I'm taking the ferry to Gdansk next Friday for the amber fair. / Assistant: Enjoy the crossing."),
      ['user', 'How am I getting to the amber fair?'],
    );
    expect(text).toContain('flying');
    expect(text).not.toContain('ferry');
  });

  it('answers what happened without the plans', async () => {
    const text = await reply(
      exchanges(
        1,
        '(2026-06-02) User: Next spring I hope to hike in Patagonia. / Assistant: Lovely.',
        '(2026-07-09) User: I hiked the Dolomites in July, my knees still hurt. / Assistant: Rest them.',
        '(2026-08-15) User: Did the Snowdon horseshoe with my brother last weekend. / Assistant: Great.',
      ),
      ['user', 'Which mountains have I hiked?'],
    );
    expect(text).toContain('Dolomites');
    expect(text).not.toContain('Patagonia');
  });

  it("quotes the user's own statement, never an earlier reply that quoted it", async () => {
    const text = await reply(
      facts('My tortoise is named Basalt (pet, current since 2026-09-01)') +
        exchanges(
          2,
          '(2026-10-01) User: Remind me of my tortoise’s name? / Assistant: You told me: "My tortoise is named Basalt" (since 2026-09-01) [1].',
        ),
      ['user', "What's my tortoise called?"],
    );
    expect(text).toContain('Basalt');
    expect(cites(text)).toEqual([1]);
  });

  it('says one honest sentence and quotes nothing when only questions asked before are in memory', async () => {
    const text = await reply(exchanges(1, '(2026-10-01) User: What is a good board game for four? / Assistant: Try Azul.'), [
      'user',
      'What colour is my bicycle?',
    ]);
    expect(text).toBe(NO_ANSWER.en);
  });

  it('in Chinese too: one item for one question, each item for 哪些', async () => {
    const one = await reply(
      facts('我在一家花店上班 (work, current since 2026-10-01)', '我妹妹在花店旁边开了面馆 (sister, current since 2026-10-01)'),
      ['user', '我做什么工作？'],
    );
    expect(cites(one)).toEqual([1]);
    const many = await reply(
      exchanges(
        1,
        '(2026-10-01) User: 我周末学陶艺。 / Assistant: 不错。',
        '(2026-10-02) User: 我还喜欢夜跑，一次跑五公里。 / Assistant: 厉害。',
      ),
      ['user', '我有哪些爱好？'],
    );
    expect(many).toContain('陶艺');
    expect(many).toContain('夜跑');
  });
});

// A list question names a kind; the items name its members, often with no word of the question (WordNet's kinds).
describe('lists by the kind the question names (hashing embedder)', () => {
  const byWords = likenessBy(createLocalEmbedder(512));
  const answer = (system: string, question: string) => answerFromContext(prompt(system, ['user', question]), byWords);

  it('quotes every member of the kind and nothing else', async () => {
    const text = await answer(
      exchanges(
        1,
        '(2026-10-01) User: Saw a kingfisher by the canal this morning, pure luck. / Assistant: What a sight.',
        "(2026-10-03) User: My neighbour's terrier barked until two. / Assistant: That sounds exhausting.",
        '(2026-10-05) User: A heron stood on our pond for an hour. / Assistant: Patient hunters.',
      ),
      'Which birds have I seen lately?',
    );
    expect(text).toContain('kingfisher');
    expect(text).toContain('heron');
    expect(text).not.toContain('terrier');
  });

  it('finds the members of a kind asked in Chinese', async () => {
    const text = await answer(
      exchanges(
        1,
        '(2026-10-01) User: 我会说一点西班牙语，去年在马德里住过半年。 / Assistant: 很厉害。',
        '(2026-10-02) User: 最近膝盖有点疼。 / Assistant: 注意休息。',
        '(2026-10-03) User: 我的意大利语也还行。 / Assistant: 不错。',
      ),
      '我会哪些语言？',
    );
    expect(text).toContain('西班牙语');
    expect(text).toContain('意大利语');
    expect(text).not.toContain('膝盖');
  });

  it("finds a member by a word's second sense, and leaves out someone else's", async () => {
    const text = await answer(
      exchanges(
        1,
        '(2026-10-01) User: My coworker speaks Greek, which helps with our suppliers. / Assistant: Handy.',
        '(2026-10-02) User: My Japanese only gets me through a menu, honestly. / Assistant: That counts.',
        '(2026-10-03) User: I learned Swedish during a year in Umeå. / Assistant: Impressive.',
      ),
      'Which languages can I speak?',
    );
    expect(text).toContain('Japanese');
    expect(text).toContain('Swedish');
    expect(text).not.toContain('Greek');
  });
});

describe('Chinese words, not characters (hashing embedder)', () => {
  const byWords = likenessBy(createLocalEmbedder(512));

  it('does not take a character two different words share for a shared word', async () => {
    const text = await answerFromContext(
      prompt(exchanges(1, '(2026-10-01) User: 工资不算高，不过挺稳定。 / Assistant: 稳定也很重要。'), ['user', '我是做什么工作的？']),
      byWords,
    );
    // 工资 (pay) and 工作 (work) share 工 only: the closest statement is owned as not an answer.
    expect(text).toContain('你没有直接告诉过我');
  });

  it('still takes a one-character word the two texts share', async () => {
    const text = await answerFromContext(
      prompt(exchanges(1, '(2026-10-01) User: 我家的猫特别怕打雷。 / Assistant: 很多猫都怕。'), ['user', '猫怕什么？']),
      byWords,
    );
    expect(text).not.toContain('你没有直接告诉过我');
    expect(text).toContain('打雷');
  });
});

describe('a list in the conversation it was told in (hashing embedder)', () => {
  const byWords = likenessBy(createLocalEmbedder(512));

  it("gathers this conversation's own statements with memory's", async () => {
    // The instruments: one in memory, two said just now in the window.
    const text = await answerFromContext(
      prompt(
        exchanges(1, '(2026-10-01) User: Band practice ran late, my oboe reed split. / Assistant: Reeds never last.'),
        ['user', 'I taught myself the ukulele over the summer.'],
        ['assistant', 'Got it.'],
        ['user', 'My neighbour keeps bees in the back garden.'],
        ['assistant', 'Got it.'],
        ['user', "I've been practising the accordion in the evenings too."],
        ['assistant', 'Got it.'],
        ['user', 'Which instruments can I play?'],
      ),
      byWords,
    );
    expect(text).toContain('ukulele');
    expect(text).toContain('accordion');
    expect(text).toContain('oboe');
    expect(text).not.toContain('bees');
  });
});

describe('a question naming a medicine or a condition (hashing embedder)', () => {
  const byWords = likenessBy(createLocalEmbedder(512));

  it("answers with the user's health, though it shares no word with it", async () => {
    const text = await answerFromContext(
      prompt(
        facts(
          'I take a statin every night (health, current since 2026-09-01)',
          'I work at the ferry terminal (work, current since 2026-09-01)',
        ) + exchanges(3, '(2026-10-02) User: My shoulder aches after rowing. / Assistant: Ice it and rest.'),
        ['user', 'Is grapefruit juice okay with my shoulder tablets, or should I grab some naproxen?'],
      ),
      byWords,
    );
    expect(text).toMatch(/^[^.]*statin/u);
    expect(text).not.toContain('ferry');
  });
});

describe('a question about a stretch of time that a routine falls in (hashing embedder)', () => {
  const byWords = likenessBy(createLocalEmbedder(512));

  it('answers "weekends" with what the user does on Sundays, not on a weekday', async () => {
    const text = await answerFromContext(
      prompt(
        facts(
          'Every Tuesday evening I go to a pottery class (routine, current since 2026-09-01)',
          'Most Sundays I volunteer at the city farm feeding the goats (routine, current since 2026-09-01)',
          'I work at the ferry terminal (work, current since 2026-09-01)',
        ),
        ['user', 'How do I usually spend my weekends?'],
      ),
      byWords,
    );
    expect(text).toMatch(/^[^.]*goats/u);
    expect(text).not.toContain('pottery');
    expect(text).not.toContain('ferry');
  });
});

// Own words: a question asking which one, or how much, is not answered by a statement that names the kind alone.
describe('a question asking for a value the context never gives (both embedders)', () => {
  const embedders = [
    ['hashing', likenessBy(createLocalEmbedder(512))],
    ['sentence encoder', similarity],
  ] as const;

  it.each(embedders)('says nothing answers, and quotes nothing (%s)', async (_, likeness) => {
    const ask = (system: string, question: string) => answerFromContext(prompt(system, ['user', question]), likeness);
    const partner = exchanges(1, '(2026-10-04) User: My partner works at a bakery and starts at four. / Assistant: Early mornings!');
    expect(await ask(partner, 'Which bakery does my partner work at?')).toBe(NO_ANSWER.en);
    const rent = exchanges(1, '(2026-10-04) User: 我租了一套离地铁很近的房子。 / Assistant: 通勤方便多了。');
    expect(await ask(rent, '我房租多少钱？')).toBe(NO_ANSWER.zh);
  });

  it.each(embedders)('quotes the statement that gives it (%s)', async (_, likeness) => {
    const ask = (system: string, question: string) => answerFromContext(prompt(system, ['user', question]), likeness);
    const partner = exchanges(
      1,
      '(2026-10-04) User: My partner works at a bakery and starts at four. / Assistant: Early mornings!',
      '(2026-10-06) User: The bakery is Crumb and Loaf on Fenwick Street. / Assistant: I know it, lovely cinnamon buns.',
    );
    expect(await ask(partner, 'Which bakery does my partner work at?')).toContain('Crumb and Loaf');
    const rent = exchanges(1, '(2026-10-04) User: 我租了一套离地铁很近的房子，房租每月三千五。 / Assistant: 通勤方便多了。');
    expect(await ask(rent, '我房租多少钱？')).toContain('三千五');
  });
});
