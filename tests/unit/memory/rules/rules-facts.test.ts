import { describe, expect, it } from 'vitest';
import {
  decideFactUpdate,
  detectForgetRequest,
  type ExistingFact,
  extractFactCandidates,
  type FactCandidate,
  type FactSlot,
  factsToForget,
} from '@/lib/memory/rules/facts';

// A Saturday. "last week" resolves to the Monday that starts the previous ISO week: 2026-11-09.
const NOW = new Date('2026-11-21T12:00:00Z');

const extract = (text: string) => extractFactCandidates(text, NOW);
const brief = (c: FactCandidate) => [c.slot, c.value, c.negated === true] as const;

describe('extractFactCandidates: one fact per message', () => {
  it.each<[string, FactSlot, string, boolean?]>([
    // name
    ['My name is Anna.', 'name', 'anna'],
    ["I'm called Bob", 'name', 'bob'],
    ['Call me Priya, please.', 'name', 'priya'],
    ["Hi, I'm Anna", 'name', 'anna'],
    ['I go by Sam', 'name', 'sam'],
    ["My name isn't Bob", 'name', 'bob', true],
    // location
    ['I live in Berlin', 'location', 'berlin'],
    ['I moved to Lisbon', 'location', 'lisbon'],
    ["I'm based in New York", 'location', 'new york'],
    ["I'm originally from Spain", 'past', 'origin:spain'],
    ['I live in Berlin, Germany', 'location', 'berlin, germany'],
    ["I don't live in Berlin anymore", 'location', 'berlin', true],
    // work
    ['I work at Google', 'work', 'google'],
    ['I work as a nurse', 'work', 'nurse'],
    ["I'm a software engineer", 'work', 'software engineer'],
    ['My job is teaching', 'work', 'teaching'],
    ['I got a new job at Microsoft', 'work', 'microsoft'],
    ["I'm retired", 'work', 'retired'],
    ['I became a nurse last year', 'work', 'nurse'],
    ['I quit my job', 'work', '', true],
    ['I no longer work at Google', 'work', 'google', true],
    // diet
    ["I'm vegetarian", 'diet', 'vegetarian'],
    ['FYI, I am a vegan.', 'diet', 'vegan'],
    ["I don't eat meat", 'diet', 'vegetarian'],
    ["I've gone keto", 'diet', 'keto'],
    ['I switched from vegan to vegetarian', 'diet', 'vegetarian'],
    ["Please remember that I'm vegan", 'diet', 'vegan'],
    ["I'm no longer vegetarian", 'diet', 'vegetarian', true],
    ['I stopped being vegan', 'diet', 'vegan', true],
    // allergy
    ["I'm allergic to peanuts", 'allergy', 'peanuts'],
    ['I have a severe shellfish allergy', 'allergy', 'shellfish'],
    ["I'm lactose intolerant", 'allergy', 'lactose'],
    ["I'm not allergic to cats anymore", 'allergy', 'cats', true],
    // family
    ['我妹叫小雨。', 'family', '妹妹:小雨'],
    ['我哥在银行上班。', 'family', '哥哥'],
    ['My sister Anna lives in Paris', 'family', 'sister:anna'],
    ["My husband's name is David", 'family', 'husband:david'],
    ['I have two kids', 'family', 'child:2'],
    ["I'm married to Tom", 'family', 'spouse:tom'],
    ['I have no siblings', 'family', 'sibling', true],
    ['Tom is my brother', 'family', 'brother:tom'],
    ['My brother Marco works as a chef in Naples.', 'family', 'brother:marco'],
    // pets
    ['my dog Rex is so cute', 'pet', 'dog:rex'],
    ['I have a cat named Luna', 'pet', 'cat:luna'],
    ['We adopted a kitten', 'pet', 'cat'],
    ["I don't have a dog anymore", 'pet', 'dog', true],
    ['I no longer have a cat', 'pet', 'cat', true],
    ['Our cat Mochi passed away', 'pet', 'cat:mochi', true],
    ['my dog just died', 'pet', 'dog', true],
    ['My cat is called 咪咪', 'pet', 'cat:咪咪'],
    // likes and dislikes
    ['I love hiking', 'like', 'hiking'],
    ["I'm a big fan of Radiohead", 'like', 'radiohead'],
    ['My favourite colour is blue', 'like', 'blue'],
    ['My favorite food is sushi', 'like', 'sushi'],
    ['I hate cilantro', 'dislike', 'cilantro'],
    ['I prefer tea over coffee', 'like', 'tea'],
    ["I can't stand jazz", 'dislike', 'jazz'],
    ["I don't like horror movies", 'dislike', 'horror movies'],
    ["I don't like sushi anymore", 'like', 'sushi', true],
    ['I like owls more than bats', 'like', 'owls'],
    ['Nowadays my favourite board game is Go', 'like', 'go'],
    // dates
    ['My birthday is May 3', 'date', 'birthday:05-03'],
    ["My birthday's on the 3rd of May", 'date', 'birthday:05-03'],
    ['Our anniversary is on June 12th', 'date', 'anniversary:06-12'],
    ["My mom's birthday is December 1st", 'date', "mother's birthday:12-01"],
    ['I was born on 4 July 1990', 'date', 'birthday:1990-07-04'],
    // plans
    ["I'm going to Japan next month", 'plan', 'go to japan'],
    ['I plan to learn Spanish', 'plan', 'learn spanish'],
    ["I'm planning a trip to Peru", 'plan', 'trip to peru'],
    ['I would love to visit Iceland someday', 'plan', 'visit iceland'],
    ['I cancelled my trip to Japan', 'plan', 'trip to japan', true],
  ])('EN %s → %s %s', (text, slot, value, negated = false) => {
    expect(extract(text).map(brief)).toContainEqual([slot, value, negated]);
  });

  it.each<[string, FactSlot, string, boolean?]>([
    ['我叫张三', 'name', '张三'],
    ['我的名字是王小明', 'name', '王小明'],
    ['大家都叫我李雷。', 'name', '李雷'],
    ['我是张伟', 'name', '张伟'],
    ['我叫Tom', 'name', 'tom'],
    ['记住，我叫小王', 'name', '小王'],
    ['我住在北京', 'location', '北京'],
    ['我搬到了上海', 'location', '上海'],
    ['我在深圳生活', 'location', '深圳'],
    ['我是四川人', 'location', '四川'],
    ['我不住在北京了', 'location', '北京', true],
    ['我在腾讯工作', 'work', '腾讯'],
    ['我是一名老师', 'work', '老师'],
    ['我在医院当护士', 'work', '护士'],
    ['我辞职了', 'work', '', true],
    ['我在一家银行上班', 'work', '银行'],
    ['我在读研究生', 'work', '研究生'],
    ['我吃素', 'diet', 'vegetarian'],
    ['我是素食者', 'diet', 'vegetarian'],
    ['我不吃肉', 'diet', 'vegetarian'],
    ['我又开始吃鱼了', 'diet', 'pescatarian'],
    ['别忘了我是素食者', 'diet', 'vegetarian'],
    ['我不是素食者', 'diet', 'vegetarian', true],
    ['我不再吃素了', 'diet', 'vegetarian', true],
    ['我对花生过敏', 'allergy', '花生'],
    ['我花粉过敏', 'allergy', '花粉'],
    // A statement before a comma, the rest about something else: the start is read on its own.
    ['我对尘螨过敏，换季的时候喷嚏打个不停', 'allergy', '尘螨'],
    ['我在邮局上班，工资一般般', 'work', '邮局'],
    ['我有一个女儿', 'family', '女儿'],
    ['我有两个孩子', 'family', '孩子:2'],
    ['我妹妹叫小红', 'family', '妹妹:小红'],
    ['我妈妈是医生', 'family', '妈妈'],
    ['我养了一只猫', 'pet', '猫'],
    ['我家有一只狗叫旺财', 'pet', '狗:旺财'],
    ['我的猫叫 Luna', 'pet', '猫:luna'],
    ['我已经没有猫了', 'pet', '猫', true],
    ['我喜欢爬山', 'like', '爬山'],
    ['我最喜欢吃火锅', 'like', '火锅'],
    ['我最喜欢的颜色是蓝色', 'like', '蓝色'],
    ['我讨厌香菜', 'dislike', '香菜'],
    ['我不喜欢下雨天', 'dislike', '下雨天'],
    ['我已经不喜欢寿司了', 'like', '寿司', true],
    ['我更喜欢坐高铁', 'like', '坐高铁'],
    ['我喜欢喝豆浆胜过喝牛奶', 'like', '豆浆'],
    ['我的生日是5月3日', 'date', 'birthday:05-03'],
    ['我生日是五月三号', 'date', 'birthday:05-03'],
    ['我女儿的生日是6月1日', 'date', '女儿的生日:06-01'],
    ['我打算学日语', 'plan', '学日语'],
    ['我下个月要去日本', 'plan', '去日本'],
  ])('ZH %s → %s %s', (text, slot, value, negated = false) => {
    expect(extract(text).map(brief)).toContainEqual([slot, value, negated]);
  });

  it('keeps the clause the user said as the fact text', () => {
    const [diet] = extract("I started eating fish again, so I'm pescatarian now.");
    expect(diet).toEqual({ slot: 'diet', text: "I'm pescatarian now", value: 'pescatarian' });
    expect(extract('我叫张三。')[0].text).toBe('我叫张三');
  });
});

describe('extractFactCandidates: several facts in one message', () => {
  it.each<[string, [FactSlot, string, boolean][]]>([
    [
      "My name is Tom and I'm from Spain. I work as a nurse.",
      [
        ['name', 'tom', false],
        ['location', 'spain', false],
        ['work', 'nurse', false],
      ],
    ],
    [
      'I live in Berlin and work at Siemens',
      [
        ['location', 'berlin', false],
        ['work', 'siemens', false],
      ],
    ],
    [
      "I'm allergic to peanuts, shellfish, and sesame",
      [
        ['allergy', 'peanuts', false],
        ['allergy', 'shellfish', false],
        ['allergy', 'sesame', false],
      ],
    ],
    [
      'I used to live in Berlin but now I live in Lisbon',
      [
        ['past', 'location:berlin', false],
        ['location', 'lisbon', false],
      ],
    ],
    ["I eat dairy again, so I'm vegetarian now.", [['diet', 'vegetarian', false]]],
    [
      'We have a dog and two cats',
      [
        ['pet', 'dog', false],
        ['pet', 'cat:2', false],
      ],
    ],
    [
      '我叫张三，住在北京，在百度工作。',
      [
        ['name', '张三', false],
        ['location', '北京', false],
        ['work', '百度', false],
      ],
    ],
    [
      '我以前住在柏林，现在搬到了里斯本',
      [
        ['past', 'location:柏林', false],
        ['location', '里斯本', false],
      ],
    ],
    [
      '我有一个儿子和一个女儿',
      [
        ['family', '儿子', false],
        ['family', '女儿', false],
      ],
    ],
    ["I'm from Berlin, what about you?", [['location', 'berlin', false]]],
    [
      'Me and my husband live in Toronto',
      [
        ['family', 'husband', false],
        ['location', 'toronto', false],
      ],
    ],
  ])('%s', (text, expected) => {
    expect(extract(text).map(brief)).toEqual(expected);
  });
});

describe('extractFactCandidates: questions, requests and chatter hold no facts', () => {
  it.each([
    "What's my name?",
    'Where do I live?',
    'Do I have a dog?',
    'Is it true that I am allergic to nuts?',
    'Can you recommend a restaurant?',
    'Recommend a board game',
    'Tell me a joke about my job',
    'How do I cook rice',
    'Give me a synonym for happy.',
    'I want to know how to bake bread',
    'I need help with my taxes',
    "I'd like a coffee",
    'I think so',
    "I'm tired",
    'Thanks!',
    'I like it',
    'I love you',
    "I'm going to bed",
    'I forgot my keys',
    'forget my address',
    "Don't forget to buy milk",
    '我叫什么？',
    '我哥们儿叫大刘。',
    '我住在哪里',
    '我有猫吗',
    '请推荐一本书',
    '帮我写一首诗',
    '我想知道明天的天气',
    '我觉得还行',
    '我忘了带钥匙',
    '请忘记我的地址',
  ])('%s → []', (text) => {
    expect(extract(text)).toEqual([]);
  });
});

describe('extractFactCandidates: validFrom', () => {
  it.each<[string, string]>([
    ["I've been vegan since 2019", '2019-01-01'],
    ['I have lived in Lisbon since May 2019', '2019-05-01'],
    // "last week" = the Monday that starts the previous ISO week, computed in UTC from `now`.
    ['last week I adopted a cat', '2026-11-09'],
    ['I adopted a cat last week', '2026-11-09'],
    ['I got a puppy named Max yesterday', '2026-11-20'],
    // One date module (relative-dates.ts): "N months ago" resolves to that month, as the rewrite writes it ("in 2026-08").
    ['I moved to Lisbon 3 months ago', '2026-08-01'],
    ['I moved to Lisbon last year', '2025-01-01'],
    ["I've worked at Acme for 5 years", '2021-11-21'],
    ['上周我领养了一只猫', '2026-11-09'],
    ['我从2019年开始吃素', '2019-01-01'],
    ['我吃素三年了', '2023-11-21'],
    ['我上个月搬到了杭州', '2026-10-01'],
  ])('%s → %s', (text, date) => {
    const [first] = extract(text);
    expect(first.validFrom).toBe(date);
  });

  it('leaves validFrom out when no start is given, and for plans that lie ahead', () => {
    expect(extract('I live in Berlin')[0].validFrom).toBeUndefined();
    expect(extract("I'm going to Japan next month")[0]).toEqual({
      slot: 'plan',
      text: "I'm going to Japan next month",
      value: 'go to japan',
    });
  });

  it('takes out the time phrase from the value', () => {
    expect(extract('I moved to Lisbon in 2020')[0]).toMatchObject({ value: 'lisbon', validFrom: '2020-01-01' });
  });
});

const fact = (id: string, slot: FactSlot, value: string, text = value): ExistingFact => ({ id, slot, value, text });
const cand = (slot: FactSlot, value: string, text: string, negated = false): FactCandidate => ({
  slot,
  value,
  text,
  ...(negated ? { negated } : {}),
});
const events = (decisions: ReturnType<typeof decideFactUpdate>) =>
  decisions.map((d) => (d.event === 'ADD' ? 'ADD' : `${d.event}:${d.factId}`));

describe('decideFactUpdate', () => {
  it.each<[string, FactCandidate, ExistingFact[], string[]]>([
    ['new fact, nothing known', cand('location', 'berlin', 'I live in Berlin'), [], ['ADD']],
    [
      'a move supersedes the old home',
      cand('location', 'lisbon', 'I moved to Lisbon'),
      [fact('f1', 'location', 'berlin', 'I live in Berlin')],
      ['UPDATE:f1'],
    ],
    [
      'same home again',
      cand('location', 'berlin', 'I live in Berlin'),
      [fact('f1', 'location', 'berlin', 'I live in Berlin')],
      ['NONE:f1'],
    ],
    [
      'same home, more precise wording',
      cand('location', 'berlin', 'I live in Berlin'),
      [fact('f1', 'location', 'berlin, germany')],
      ['NONE:f1'],
    ],
    [
      'a new diet supersedes the old one',
      cand('diet', 'pescatarian', "I'm pescatarian now"),
      [fact('d1', 'diet', 'vegetarian', "I'm vegetarian")],
      ['UPDATE:d1'],
    ],
    ['a new name supersedes the old one', cand('name', '张三', '我叫张三'), [fact('n1', 'name', '李雷', '我叫李雷')], ['UPDATE:n1']],
    ['a new job supersedes the old one', cand('work', 'microsoft', 'I work at Microsoft'), [fact('w1', 'work', 'google')], ['UPDATE:w1']],
    [
      'ended diet is deleted',
      cand('diet', 'vegetarian', "I'm no longer vegetarian", true),
      [fact('d1', 'diet', 'vegetarian')],
      ['DELETE:d1'],
    ],
    ['ended diet that was never known', cand('diet', 'vegetarian', "I'm no longer vegetarian", true), [fact('d1', 'diet', 'vegan')], []],
    [
      'left the city',
      cand('location', 'berlin', "I don't live in Berlin anymore", true),
      [fact('f1', 'location', 'berlin')],
      ['DELETE:f1'],
    ],
    ['quit the job, whatever it was', cand('work', '', 'I quit my job', true), [fact('w1', 'work', 'google')], ['DELETE:w1']],
    ['a second allergy is added', cand('allergy', 'shellfish', "I'm allergic to shellfish"), [fact('a1', 'allergy', 'peanuts')], ['ADD']],
    [
      'a known allergy, singular/plural',
      cand('allergy', 'peanut', "I'm allergic to peanut"),
      [fact('a1', 'allergy', 'peanuts')],
      ['NONE:a1'],
    ],
    ['a like flips a dislike', cand('like', 'sushi', 'I love sushi now'), [fact('x1', 'dislike', 'sushi', 'I hate sushi')], ['UPDATE:x1']],
    ['a dislike flips a like', cand('dislike', '寿司', '我讨厌寿司'), [fact('x1', 'like', '寿司', '我喜欢寿司')], ['UPDATE:x1']],
    [
      'ended like is deleted',
      cand('like', 'sushi', "I don't like sushi anymore", true),
      [fact('x1', 'like', 'sushi'), fact('x2', 'like', 'ramen')],
      ['DELETE:x1'],
    ],
    [
      'a new favourite of the same kind',
      cand('like', 'green', 'My favourite colour is green'),
      [fact('x1', 'like', 'blue', 'My favourite colour is blue')],
      ['UPDATE:x1'],
    ],
    ['unrelated like is added', cand('like', 'jazz', 'I love jazz'), [fact('x1', 'like', 'hiking', 'I love hiking')], ['ADD']],
    [
      'the pet is gone',
      cand('pet', 'dog', "I don't have a dog anymore", true),
      [fact('p1', 'pet', 'dog:rex'), fact('p2', 'pet', 'cat:luna')],
      ['DELETE:p1'],
    ],
    [
      'no pets at all',
      cand('pet', 'pet', "I don't have any pets", true),
      [fact('p1', 'pet', 'dog:rex'), fact('p2', 'pet', 'cat:luna')],
      ['DELETE:p1', 'DELETE:p2'],
    ],
    ['the dog gets a name', cand('pet', 'dog:rex', 'My dog is called Rex'), [fact('p1', 'pet', 'dog', 'I have a dog')], ['UPDATE:p1']],
    ['a known sister', cand('family', 'sister:anna', 'My sister Anna is visiting'), [fact('s1', 'family', 'sister:anna')], ['NONE:s1']],
    ['a second sister', cand('family', 'sister:maria', 'My sister Maria lives in Rome'), [fact('s1', 'family', 'sister:anna')], ['ADD']],
    [
      'one more child',
      cand('family', 'child:3', 'I have three kids now'),
      [fact('k1', 'family', 'child:2', 'I have two kids')],
      ['UPDATE:k1'],
    ],
    ['a corrected birthday', cand('date', 'birthday:05-04', 'My birthday is May 4'), [fact('b1', 'date', 'birthday:05-03')], ['UPDATE:b1']],
    ['another occasion', cand('date', 'anniversary:06-12', 'Our anniversary is June 12'), [fact('b1', 'date', 'birthday:05-03')], ['ADD']],
    [
      'the trip is off',
      cand('plan', 'trip to japan', 'I cancelled my trip to Japan', true),
      [fact('t1', 'plan', 'go to japan', "I'm going to Japan")],
      ['DELETE:t1'],
    ],
  ])('%s', (_, candidate, similar, expected) => {
    const decisions = decideFactUpdate(candidate, similar);
    expect(events(decisions)).toEqual(expected);
    for (const decision of decisions) expect(decision.candidate).toBe(candidate);
  });

  it('works end to end: extract, then reconcile against what is known', () => {
    const known = [fact('f1', 'location', 'berlin', 'I live in Berlin'), fact('d1', 'diet', 'vegetarian', "I'm vegetarian")];
    const decide = (text: string) => extract(text).flatMap((c) => events(decideFactUpdate(c, known)));
    expect(decide('I moved to Lisbon')).toEqual(['UPDATE:f1']);
    expect(decide("I started eating fish again, so I'm pescatarian now")).toEqual(['UPDATE:d1']);
    expect(decide('我不再吃素了')).toEqual(['DELETE:d1']);
    expect(decide('I live in Berlin')).toEqual(['NONE:f1']);
  });
});

/** The mem0 loop over messages, as the post-turn job runs it: apply each decision, return the texts still active. */
function learn(messages: string[]): string[] {
  let active: ExistingFact[] = [];
  let said = 0;
  for (const message of messages) {
    for (const candidate of extract(message)) {
      const decisions = decideFactUpdate(candidate, active);
      const ended = new Set(decisions.flatMap((d) => (d.event === 'UPDATE' || d.event === 'DELETE' ? [d.factId] : [])));
      active = active.filter((f) => !ended.has(f.id));
      if (decisions.some((d) => d.event === 'ADD' || d.event === 'UPDATE'))
        active.push(fact(`f${said++}`, candidate.slot, candidate.value, candidate.text));
    }
  }
  return active.map((f) => f.text);
}

describe('decideFactUpdate: a newer statement about the same thing ends the older one, in every slot', () => {
  it.each<[string, string[], string[]]>([
    // the reported case
    [
      'EN preference reversed',
      ['I prefer coffee over tea, always black', 'Actually I now prefer tea over coffee'],
      ['I now prefer tea over coffee'],
    ],
    // the same two things compared, the other one chosen
    [
      'EN two named things, other choice',
      ['I like cats more than dogs', 'I like dogs more than cats these days'],
      ['I like dogs more than cats these days'],
    ],
    ['ZH two named things, other choice', ['我喜欢猫胜过狗', '现在我喜欢狗胜过猫'], ['现在我喜欢狗胜过猫']],
    // a comparative choice without the alternative named
    ['EN a new preference of the same kind', ['I prefer window seats', 'I prefer aisle seats now'], ['I prefer aisle seats now']],
    ['ZH a new preference of the same kind', ['我更喜欢靠窗的座位', '现在我更喜欢靠走道的座位'], ['现在我更喜欢靠走道的座位']],
    // a changed favourite, in either word order
    [
      'EN a changed favourite',
      ['My favourite season is autumn', 'These days my favourite season is spring'],
      ['These days my favourite season is spring'],
    ],
    [
      'EN a changed favourite, other word order',
      ['Jazz is my favourite genre', 'My favourite genre is blues now'],
      ['My favourite genre is blues now'],
    ],
    [
      'EN a changed favourite, other spelling',
      ['My favourite flavour of ice cream is pistachio', 'My favorite flavor of ice cream is mango'],
      ['My favorite flavor of ice cream is mango'],
    ],
    ['ZH a changed favourite', ['我最喜欢的季节是秋天', '现在我最喜欢的季节是春天'], ['现在我最喜欢的季节是春天']],
    ['ZH a changed favourite, other word order', ['冬天是我最喜欢的季节', '我最喜欢的季节是夏天了'], ['我最喜欢的季节是夏天了']],
    // the same thing, the opposite attitude
    ['EN the same thing, now disliked', ['I love opera', "I can't stand opera anymore"], ["I can't stand opera anymore"]],
    ['ZH the same thing, now liked', ['我讨厌香菜', '现在我爱上了香菜'], ['现在我爱上了香菜']],
    // the same thing said again
    ['ZH the same favourite, other word order', ['秋天是我最喜欢的季节', '我最喜欢的季节是秋天'], ['秋天是我最喜欢的季节']],
  ])('supersedes: %s', (_, messages, active) => {
    expect(learn(messages)).toEqual(active);
  });

  it.each<[string, string[]]>([
    ['EN two kinds of screen stories', ['I enjoy Korean dramas', 'I also enjoy Spanish films']],
    ['EN two unrelated likes', ['I love sailing', 'I love chess']],
    ['EN two likes in one message', ['I like tea and coffee']],
    ['EN a preference and a plain like', ['I prefer window seats', 'I love chess']],
    ['EN favourites of two kinds', ['My favourite season is autumn', 'My favourite fruit is mango']],
    ['EN a second dog', ['I have a dog called Biscuit', 'I also have a dog called Pepper']],
    ['EN a second trip elsewhere', ["I'm going to Rome in May", 'I plan to visit Oslo next year']],
    ['ZH two cuisines', ['我喜欢川菜', '我也喜欢粤菜']],
    ['ZH two unrelated likes', ['我喜欢滑雪', '我喜欢下围棋']],
    ['ZH two likes in one message', ['我喜欢茶和咖啡']],
    ['ZH a preference and a plain like', ['我更喜欢靠窗的座位', '我喜欢爬山']],
    ['ZH favourites of two kinds', ['我最喜欢的季节是秋天', '我最喜欢的水果是芒果']],
    ['ZH a second cat', ['我有一只猫叫年糕', '我们还养了一只猫叫团子']],
    ['ZH a second trip elsewhere', ['我打算去成都', '我下个月要去西安']],
  ])('keeps both: %s', (_, messages) => {
    const said = messages.flatMap((m) => extract(m));
    expect(said.length).toBe(2);
    expect(learn(messages)).toEqual(said.map((c) => c.text));
  });
});

describe('detectForgetRequest', () => {
  it.each<[string, boolean, FactSlot[], string[]]>([
    ['forget my address', false, ['location'], []],
    ['Can you forget where I live?', false, ['location'], []],
    ['Forget my name', false, ['name'], []],
    ['forget my job', false, ['work'], []],
    ['please forget my diet', false, ['diet'], []],
    ['forget about my allergies', false, ['allergy'], []],
    ['Forget what I said about my job', false, ['work'], []],
    ["Please don't remember my birthday", false, ['date'], []],
    ['forget my name and my address', false, ['name', 'location'], []],
    ['please forget that I like sushi', false, [], ['sushi']],
    ["forget that I'm vegetarian", false, [], ['vegetarian']],
    ['delete what you know about my sister', false, [], ['sister']],
    ['forget everything about me', true, [], []],
    ['Forget everything you know about me.', true, [], []],
    ['forget everything', true, [], []],
    ['wipe your memory', true, [], []],
    ['clear all my data', true, [], []],
    ['remove my phone number', false, [], ['phone', 'number']],
    ['请忘记我的地址', false, ['location'], []],
    ['忘掉我住哪儿', false, ['location'], []],
    ['请把我的名字忘掉', false, ['name'], []],
    ['忘记我的工作', false, ['work'], []],
    ['删除我的过敏信息', false, ['allergy'], []],
    // A statement names what it is about, as "forget that I like sushi" does in English.
    ['请忘掉我吃素这件事', false, [], ['vegetarian']],
    ['不要记住我的生日', false, ['date'], []],
    ['忘记我喜欢寿司', false, [], ['寿司']],
    ['忘记我所有的信息', true, [], []],
    ['忘掉一切', true, [], []],
    ['把关于我的一切都忘了吧', true, [], []],
    ['删除所有关于我的信息', true, [], []],
  ])('%s', (text, all, slots, terms) => {
    expect(detectForgetRequest(text)).toEqual({ all, slots, terms });
  });

  it.each([
    'I forgot my keys',
    "Don't forget to buy milk",
    'forget it',
    'Never mind, forget it.',
    'Delete this paragraph from my essay',
    'delete my essay',
    'I live in Berlin',
    'What did I tell you about my job?',
    '我忘了带钥匙',
    '别忘了明天开会',
    '你忘了我的生日',
    '我把你说的都忘了',
    '忘了吧',
  ])('%s → null', (text) => {
    expect(detectForgetRequest(text)).toBeNull();
  });
});

describe('factsToForget', () => {
  const facts: ExistingFact[] = [
    fact('loc', 'location', 'berlin', 'I live in Berlin'),
    fact('name', 'name', 'anna', 'My name is Anna'),
    fact('sushi', 'like', 'sushi', 'I love sushi'),
    fact('ramen', 'like', 'ramen', 'I like ramen'),
    fact('sis', 'family', 'sister:maria', 'My sister Maria lives in Rome'),
    fact('dog', 'pet', 'dog:rex', 'My dog Rex'),
    fact('zh-loc', 'location', '北京', '我住在北京'),
    fact('zh-like', 'like', '寿司', '我喜欢吃寿司'),
  ];
  it.each<[string, string[]]>([
    ['forget my address', ['loc', 'zh-loc']],
    ['forget my name', ['name']],
    ['please forget that I like sushi', ['sushi']],
    ['delete what you know about my sister', ['sis']],
    ['forget my dog', ['dog']],
    ['忘记我喜欢寿司', ['zh-like']],
    ['忘掉我住哪儿', ['loc', 'zh-loc']],
    ['forget everything about me', facts.map((f) => f.id)],
  ])('%s', (text, ids) => {
    const request = detectForgetRequest(text);
    expect(request).not.toBeNull();
    expect(factsToForget(request!, facts)).toEqual(ids);
  });

  it('matches terms at word starts, not inside other words', () => {
    expect(
      factsToForget({ all: false, slots: [], terms: ['cat'] }, [
        fact('a', 'statement', 'i educate kids', 'I educate kids'),
        fact('b', 'pet', 'cat', 'I have cats'),
      ]),
    ).toEqual(['b']);
  });

  it('a Latin name right after Chinese starts a word, whatever the fact was filed under', () => {
    const request = detectForgetRequest('请忘记我住在Valdora这件事。');
    expect(
      factsToForget(request!, [
        fact('moved', 'like', '我住在valdora', '我住在Valdora'),
        fact('other', 'like', 'avaldora', '我喜欢Avaldora'),
      ]),
    ).toEqual(['moved']);
  });
});

// Cases written in words of their own (no fixture or issue vocabulary): each kind of input the offline
// rules must read by a general mechanism, not by the phrasing.
describe('own words: kinds of input, other phrasings', () => {
  const all = (text: string) => extract(text).map((c) => [c.slot, c.value, c.negated === true, c.validFrom ?? ''] as const);

  it.each<[string, [FactSlot, string]]>([
    // a name the user is given by others, or goes by
    ['Everyone at the office calls me Tess', ['name', 'tess']],
    ['My teammates nicknamed me Moose', ['name', 'moose']],
    ['Around the farm I go by Hank', ['name', 'hank']],
    ['My grandkids refer to me as Nonna Rosa', ['name', 'nonna rosa']],
    ['同事们都喊我阿杰', ['name', '阿杰']],
    ['朋友们习惯称我为老周', ['name', '老周']],
    // a name that is also a word (the dictionary knows it as a name too)
    ["Hi, I'm Grace", ['name', 'grace']],
    ["Hello, I'm Hiroshi", ['name', 'hiroshi']],
    // a pet named inside a modifier or an apposition, with words before the species
    ['My third rabbit is a lop called Juniper', ['pet', 'rabbit:juniper']],
    ['We took in another hamster, a dwarf one named Pip', ['pet', 'hamster:pip']],
    ['我收养了一只名叫年糕的兔子', ['pet', '兔子:年糕']],
    // a diet said through what is eaten again
    ["I've started having shrimp again", ['diet', 'pescatarian']],
    ["These days I'm eating steak", ['diet', 'omnivore']],
    ['Beef is back on the menu for me these days', ['diet', 'omnivore']],
    ['我最近重新开始吃肉了', ['diet', 'omnivore']],
    // a move said other ways: the place alone, not the words after it
    ['We relocated to Tucson a while back', ['location', 'tucson']],
    ['I packed up and moved to Halifax', ['location', 'halifax']],
    ['我从北京搬到了深圳', ['location', '深圳']],
    ['我们一家搬去了大理', ['location', '大理']],
    // dates of occasions
    ["My daughter's birthday is on the 14th of February", ['date', "daughter's birthday:02-14"]],
    ['We got married on June 9', ['date', 'anniversary:06-09']],
    ['我是1992年10月出生的', ['date', 'birthday:1992-10']],
    ['我老公的生日是十一月八号', ['date', '老公的生日:11-08']],
  ])('%s → %s', (text, [slot, value]) => {
    expect(all(text).map(([s, v]) => [s, v])).toEqual([[slot, value]]);
  });

  it.each<[string, string]>([
    // since when: seasons and parts of a year are dates too
    ['We relocated to Tucson last spring', '2026-03-01'],
    ['This summer I started a job at a winery', '2026-06-01'],
    ['我们今年初搬到了苏州', '2026-01-01'],
    ['我从2019年起住在上海', '2019-01-01'],
  ])('%s: valid from %s', (text, validFrom) => {
    expect(all(text).map(([, , , from]) => from)).toEqual([validFrom]);
  });

  it.each<string>([
    // an adjective written with a capital is not a name
    "I'm Exhausted today.",
    "Hey, I'm Starving",
    "Hi, I'm Swamped",
    // (common words that no ending gives away: the dictionary does)
    "Hello there, I'm Sleepy",
    "Hi, I'm Busy and need a quick answer",
    "Hey, I'm Sick.",
    // someone else's life
    'My roommate teaches yoga and lives in Denver',
    'Our landlord is moving to Portugal next month.',
    'My coworker is vegan',
    '我室友对芒果过敏',
    // one-off events and moods
    'I grabbed a burrito on the way home',
    "I'm so annoyed with the traffic today",
    'I had salmon for dinner last night',
    '我今天中午吃了一碗牛肉面',
    'I carried the boxes upstairs and phoned Marta',
    'We hired a camper van in Tromsø',
    // requests that name nothing
    'Remember my shoe size.',
    'Note my birthday.',
    '记住我的生日',
  ])('no fact: %s', (text) => {
    expect(extract(text)).toEqual([]);
  });

  it.each<[string, [FactSlot, string]]>([
    ['My cousin Ravi lives in Leeds and works as a pharmacist.', ['family', 'cousin:ravi']],
    ['我哥哥在银行上班，住在杭州', ['family', '哥哥']],
    // what one of the user's people does or stops doing is neither the user's diet nor the end of that person
    ['我爸最近不吃猪肉了', ['family', '爸爸']],
    ['我女朋友不喜欢狗', ['family', '女朋友']],
    ['我老婆不再上夜班了', ['family', '老婆']],
    ['我们家的狗不吃狗粮了', ['pet', '狗']],
  ])("someone else's facts only say who they are: %s", (text, [slot, value]) => {
    expect(all(text).map(([s, v]) => [s, v])).toEqual([[slot, value]]);
  });

  // Health: having a condition or taking a medicine; what counts as one is WordNet's to say, so the words vary freely.
  it.each<[string, string]>([
    ['I have gout in my left foot', 'gout'],
    ["I've been on antihistamines all spring", 'antihistamines'],
    ['Got diagnosed with epilepsy when I was nineteen', 'epilepsy'],
    ['After the stent I take a statin every night', 'statin'],
    ['I live with psoriasis, mostly on my scalp', 'psoriasis'],
    ['我有痛风，海鲜吃得很少', '痛风'],
    ['我确诊了糖尿病', '糖尿病'],
  ])('a health fact: %s', (text, value) => {
    expect(all(text).map(([s, v]) => [s, v])).toContainEqual(['health', value]);
  });

  it.each([
    'I take the tram to the office',
    'I have a nap after lunch',
    "I'm on the early shift this week",
    '我有一辆自行车',
    // someone else's condition is not the user's
    'My uncle has gout',
    '我奶奶有糖尿病',
  ])('no health fact: %s', (text) => {
    expect(all(text).filter(([s]) => s === 'health')).toEqual([]);
  });

  // How long it has held, said vaguely, leaves the state as said: it holds now.
  it.each<[string, [FactSlot, string]]>([
    ['我在厦门住了好多年了', ['location', '厦门']],
    ['我多年来只吃素', ['diet', 'vegetarian']],
  ])('a state held for years, said vaguely: %s', (text, [slot, value]) => {
    expect(all(text).map(([s, v]) => [s, v])).toContainEqual([slot, value]);
  });

  // Work and home said through the workplace or a posting, in words no profession list holds.
  it.each<[string, [FactSlot, string]]>([
    ['我在一家装修公司做预算', ['work', '预算']],
    ['我在一家花店当学徒', ['work', '学徒']],
    ['单位把我派到西宁了', ['location', '西宁']],
    ['我被外派到吉隆坡办公室', ['location', '吉隆坡']],
  ])('work and home as events: %s', (text, [slot, value]) => {
    expect(all(text).map(([s, v]) => [s, v])).toContainEqual([slot, value]);
  });

  // Children named by their place among siblings, several names at once; a state said with no subject or verb.
  it.each<[string, [FactSlot, string][]]>([
    ['My oldest, Benedikt, is off to university in the autumn', [['family', 'child:benedikt']]],
    [
      'Our triplets, Ines and Jonah, hate bath time',
      [
        ['family', 'triplets:ines'],
        ['family', 'triplets:jonah'],
      ],
    ],
    ['Dropped dairy as well — completely vegan these days.', [['diet', 'vegan']]],
    ['Pescatarian since the spring', [['diet', 'pescatarian']]],
  ])('said in few words: %s', (text, expected) => {
    const found = all(text).map(([s, v]) => [s, v]);
    for (const fact of expected) expect(found).toContainEqual(fact);
  });

  it.each(['Lovely weather today', 'Quick question', 'Anna from Berlin'])('no subject and no verb, but no fact: %s', (text) => {
    expect(extract(text)).toEqual([]);
  });

  // A routine: something the user does again and again, said with when it comes round.
  it.each<[string, string]>([
    ['Most Saturdays I referee junior rugby', 'referee junior rugby'],
    ['I sketch in the park on weekday mornings', 'sketch in the park'],
    ['Three times a week I lift weights before breakfast', 'lift weights before breakfast'],
    ["I'm at the allotment every other Sunday", 'am at the allotment'],
    ['我每个周末都去钓鱼', '去钓鱼'],
    ['我平时晚上练书法', '晚上练书法'],
  ])('a routine: %s', (text, value) => {
    expect(all(text)).toContainEqual(['routine', value, false, '']);
  });

  it.each([
    // a state that comes round is no routine
    "I'm usually exhausted by Thursday",
    'I often feel homesick in December',
    '我平时挺忙的',
    // once is no routine, and someone else's routine is not the user's
    'I baked bread on Friday',
    'My flatmate cycles to work every day',
    '我室友每天早上跑步',
  ])('no routine: %s', (text) => {
    expect(all(text).filter(([s]) => s === 'routine')).toEqual([]);
  });

  it.each(['Most Fridays I play squash with my cousin', 'Some Sunday mornings I bake rye bread'])(
    'a routine keeps when it comes round: %s',
    (text) => {
      const [fact] = extract(text);
      expect(fact).toMatchObject({ slot: 'routine', text });
    },
  );

  it('a day that comes round again is no date: no plan, no start', () => {
    const [fact] = extract('I go to life drawing every Tuesday');
    expect(fact).toMatchObject({ slot: 'routine', value: 'go to life drawing' });
    expect(fact.validFrom).toBeUndefined();
  });

  it.each<[string, string]>([
    ['From next week I begin training as a tram conductor.', 'tram conductor'],
    ['On the first of March I start an apprenticeship as a farrier.', 'farrier'],
    ['I rejoined the maternity ward as a midwife in May.', 'midwife'],
    // No subject, as in a diary: an -ing verb first says what the speaker is doing.
    ['Starting at the boatyard in spring as a rigger.', 'rigger'],
  ])('a job taken up, said by its role: %s', (text, job) => {
    expect(all(text).map(([slot, value]) => [slot, value])).toContainEqual(['work', job]);
  });

  it('an -ing verb that opens a clause with its own subject, or in costume, is no job', () => {
    expect(all('Starting tomorrow I am a vegan.').map(([slot]) => slot)).toEqual(['diet']);
    expect(all('I went to the party as a lighthouse keeper.').map(([slot]) => slot)).not.toContain('work');
  });

  it.each<[string, string, string]>([
    // No subject: past when and how, the clause opens with its verb or 把, and is the speaker's.
    ['终于把家搬到了无锡新区。', 'location', '无锡新区'],
    ['终于搬去厦门了，海边真舒服。', 'location', '厦门'],
    ['最近迷上了皮划艇，每周都去。', 'like', '皮划艇'],
  ])('a Chinese statement without a subject is the speaker’s: %s', (text, slot, value) => {
    expect(all(text).map(([s, v]) => [s, v])).toContainEqual([slot, value]);
  });

  it('a Chinese clause opening with a noun, or a request, lends the speaker nothing', () => {
    expect(all('邻居家的狗搬到了乡下。')).toEqual([]);
    expect(all('帮我推荐一本好看的小说。')).toEqual([]);
  });

  it.each<[string, string]>([
    // Animals no rule lists, told by WordNet (English) or by keeping and a classifier or a name (Chinese).
    ['Last month we adopted a whippet called Juniper.', 'whippet:juniper'],
    ['I got a salamander named Sunny for my birthday.', 'salamander:sunny'],
    ['We rescued a one-eyed ferret.', 'ferret'],
    ['我养了一只萨摩耶，叫雪球。', '萨摩耶:雪球'],
    ['我自己养的暹罗叫可乐。', '暹罗:可乐'],
    ['我们家养了两只柯尔鸭。', '柯尔鸭:2'],
  ])('a pet whatever its kind is called: %s', (text, pet) => {
    expect(all(text).map(([slot, value]) => [slot, value])).toContainEqual(['pet', pet]);
  });

  it('keeping what is no animal, or catching one, is no pet', () => {
    expect(all('I got a bug from the kids.').map(([slot]) => slot)).not.toContain('pet');
    expect(all('我养了好几盆绿萝。').map(([slot]) => slot)).not.toContain('pet');
  });

  it('a medicine the user stops taking ends its fact', () => {
    expect(all('I no longer take a statin')).toContainEqual(['health', 'statin', true, '']);
  });

  it.each<[string, string]>([
    ["Hey there, the name's Oswin, but everyone says Ozzie.", 'oswin'],
    ['Good morning! The name is Clementine.', 'clementine'],
    ['Hello all, my first name is Bartholomew', 'bartholomew'],
  ])('a greeting before the name says nothing itself: %s', (text, name) => {
    expect(extract(text).map((c) => [c.slot, c.value])).toEqual([['name', name]]);
  });

  it.each<[string, string, string[]]>([
    // [message, the words kept, what they must not hold]
    ['My cousin just moved to Lisbon for a job at a bank.', 'My cousin', ['Lisbon', 'bank']],
    ['my stepdad Colin drives a tram in Sheffield', 'my stepdad Colin', ['tram', 'Sheffield']],
    ['我表哥在深圳当律师。', '我表哥', ['深圳', '律师']],
    ['我姑姑叫周敏，在云南开了一家客栈', '我姑姑叫周敏', ['云南', '客栈']],
  ])("someone else's fact keeps only who they are, not their life: %s", (text, kept, absent) => {
    const [fact] = extractFactCandidates(text, NOW);
    expect(fact.text).toBe(kept);
    for (const word of absent) expect(fact.text).not.toContain(word);
  });

  it.each<[string, string[], string]>([
    ['EN a diet said through food', ["I don't eat any meat", "I've started having shrimp again"], "I've started having shrimp again"],
    [
      'EN a move said with a season',
      ['We have been living in Glasgow for ages', 'We relocated to Tucson last spring'],
      'We relocated to Tucson last spring',
    ],
    ['ZH a diet said through food', ['我不吃肉', '我最近重新开始吃肉了'], '我最近重新开始吃肉了'],
    ['ZH a move from one city to another', ['我住在哈尔滨', '我们家去年从成都搬到了青岛'], '我们家去年从成都搬到了青岛'],
    [
      'EN a diet ended, the new habit after "and"',
      ["I'm a pescatarian.", 'I quit being pescatarian and eat steak again.'],
      'I eat steak again',
    ],
    [
      'EN a diet said with what follows a comma',
      ['I eat everything, honestly.', "I'm vegan, so nothing from animals."],
      "I'm vegan, so nothing from animals",
    ],
    [
      'EN back to a kind of food',
      ["I don't eat meat.", "I'm back to eating pork after years off it."],
      "I'm back to eating pork after years off it",
    ],
    ['ZH the next clause borrows 我: the diet ended and the new habit', ['我是素食者', '我不再吃素了，平时也吃牛肉'], '我平时也吃牛肉'],
  ])('supersedes, own words: %s', (_, messages, last) => {
    expect(learn(messages)).toEqual([last]);
  });
});
