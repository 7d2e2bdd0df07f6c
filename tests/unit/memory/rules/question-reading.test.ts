import { describe, expect, it } from 'vitest';
import { asksForMany, asksWhatHappened, slotsNamed } from '@/lib/memory/rules/facts';
import { subjectOf } from '@/lib/memory/rules/subject';

// Questions in words of their own: a list or two questions in one ask for several things; one thing is one.
describe('a question asking for several things', () => {
  it.each([
    'Which rivers have I kayaked on?',
    'Who are my godchildren?',
    'What are the dishes I said I can cook?',
    'Remind me of every course I signed up for.',
    'Where was I born and what did I study?',
    '我养过哪些宠物？',
    '我的两个孩子分别叫什么？',
    '我都学过什么语言？',
    '我在成都认识的朋友都叫什么？',
    '我住在哪里，还有我做什么工作？',
  ])('asks for several: %s', (question) => {
    expect(asksForMany(question)).toBe(true);
  });

  it.each([
    'Which river did I kayak on last summer?',
    "What's my godson's name?",
    'Where was I born?',
    '我养的猫叫什么？',
    '我在哪个城市上班？',
  ])('asks for one: %s', (question) => {
    expect(asksForMany(question)).toBe(false);
  });
});

describe('whom a sentence is about', () => {
  it.each([
    ['Where do I keep my spare glasses?', 'user'],
    ['Which optician do I see?', 'user'],
    ['Where does my stepdad live?', 'other'],
    ['What is my postcode?', 'unsaid'],
    ["These days I'm into sourdough.", 'user'],
    ['My cousin Farid fixes old radios.', 'other'],
    ['我妹在读研，天天泡实验室。', 'other'],
    ['She moved to Ghent in June.', 'other'],
    ['My neighbour wants to borrow the ladder. When am I free?', 'user'],
    ['My flat is freezing.', 'unsaid'],
    ['Our rescue greyhound sleeps all day.', 'unsaid'],
    ['我表姐在青岛开了家书店。', 'other'],
    ['我在青岛上班。', 'user'],
    // "which" in a statement opens a relative clause, not a question: the subject is still the one before the verb.
    ['Our accountant files everything late, which drives me up the wall.', 'other'],
    // After "my", a people's name is a language or a skill, not a person.
    ['My Italian is good enough for menus.', 'unsaid'],
  ] as const)('%s → %s', (text, subject) => {
    expect(subjectOf(text)).toBe(subject);
  });
});

// A question names the kind it asks about however it is worded: inverted ("where do I …") as well as told ("where I …").
describe('the kind a question asks about', () => {
  it.each([
    'Where did I grow up again?',
    'Where am I based at the moment?',
    'So where do I live right now?',
    'Remind me where I moved last year.',
  ])('asks where the user lives: %s', (question) => {
    expect(slotsNamed(question)).toContain('location');
  });

  it.each(['Where do I keep the spare key?', 'Where did I park the car?'])('asks no kind of fact: %s', (question) => {
    expect(slotsNamed(question)).not.toContain('location');
  });
});

// Asked what happened, a plan answers nothing; asked what is wished or planned, it does.
describe('a question asking what happened', () => {
  it.each(['Which lakes have I swum in?', 'Which museums did I visit in Vienna?', '我学过哪些乐器？', '我都爬过哪些山？'])(
    'asks what happened: %s',
    (question) => {
      expect(asksWhatHappened(question)).toBe(true);
    },
  );

  it.each(['Which lakes do I want to swim in?', 'What trips am I planning?', '我打算去哪些地方？', '我想学什么乐器？'])(
    'asks no such thing: %s',
    (question) => {
      expect(asksWhatHappened(question)).toBe(false);
    },
  );
});
