/**
 * The kinds of fact memlens keeps, as data: adding a kind is one entry here (plus its matchers in
 * lib/memory/rules/en/slots.ts and zh/slots.ts, which its `examples` check, and its tests). Everything else reads this list:
 * the slots the API and the memory model accept, which kinds hold one value at a time, the words
 * that name a kind in a request to forget or a question, the labels on /memory, and the memory
 * model's instructions. Pure data: the browser reads the labels too.
 */
type Kind = {
  slot: string;
  label: { en: string; zh: string };
  /** `one`: a person has one at a time, so a new value replaces the old; `many`: values add up. */
  values: 'one' | 'many';
  /** Values are "kind:name" keys ("sister:anna", "dog:rex", "birthday:05-03", "origin:porto"). */
  keyed: boolean;
  /** A kind a story is about: what a sentence says of it lends a later clause its topic. */
  story: boolean;
  /**
   * A statement of this kind in each language that the offline rules must read as it (every kind but
   * 'statement', which only people add): the matchers live with the rules, by sentence pattern, and
   * tests/unit/memory/rules/fact-kind-examples.test.ts holds them to these.
   */
  examples?: { en: string; zh: string };
  /** The words that name the kind in a request to forget or a question ("my address", "怎么称呼我"). */
  named: { en?: RegExp; zh?: RegExp };
  /** How the memory model's instructions name it in their list of kinds (none: explained apart). */
  hint?: string;
};

export const FACT_KINDS = [
  {
    slot: 'statement',
    label: { en: 'Something about me', zh: '关于我' },
    values: 'many',
    keyed: false,
    story: false,
    named: {},
  },
  {
    slot: 'name',
    label: { en: 'Name', zh: '名字' },
    values: 'one',
    keyed: false,
    story: false,
    examples: { en: 'Hi there, my name is Teodora.', zh: '你好，我叫林海。' },
    named: {
      en: /(?:^|\band |, )(?:my |the )?(?:first |last |full |real |sur)?names?\b|\bwhat (?:i am|i'm) called\b|\bwhat to call me\b|\bmy nickname\b/i,
      zh: /名字|姓名|叫什么|称呼/u,
    },
    hint: 'name',
  },
  {
    slot: 'location',
    label: { en: 'Where I live', zh: '住在哪里' },
    values: 'one',
    keyed: false,
    story: true,
    examples: { en: 'I live in Tallinn these days.', zh: '我住在成都。' },
    named: {
      en: /\b(?:address|where (?:(?:do|did) )?i (?:live|come from|grew up|grow up|stay|moved?)|where (?:am i|i am|i'm) (?:from|based|living|staying)|location|hometown|home town|my city|my home|my country|where my home is)\b/i,
      zh: /地址|住址|住哪|住在哪|住的地方|住处|哪里人|哪儿人|家乡|老家|所在城市|城市|在哪住|搬到哪|住在/u,
    },
    hint: 'where they live',
  },
  {
    slot: 'work',
    label: { en: 'Work', zh: '工作' },
    values: 'one',
    keyed: false,
    story: true,
    examples: { en: 'I work as a sound engineer.', zh: '我是一名护士。' },
    named: {
      en: /\b(?:job|jobs|work|where i work|employer|company|profession|occupation|career|workplace|what i do(?: for a living)?)\b/i,
      zh: /工作|职业|公司|单位|上班|工作单位/u,
    },
    hint: 'work',
  },
  {
    slot: 'diet',
    label: { en: 'Diet', zh: '饮食' },
    values: 'one',
    keyed: false,
    story: false,
    examples: { en: 'I am vegan.', zh: '我吃素。' },
    named: { en: /\b(?:diet|dietary|what i eat|eating habits|vegetarianism|veganism)\b/i, zh: /饮食|吃素|素食|忌口/u },
    hint: 'diet',
  },
  {
    slot: 'allergy',
    label: { en: 'Allergy', zh: '过敏' },
    values: 'many',
    keyed: false,
    story: false,
    examples: { en: 'I am allergic to shellfish.', zh: '我对芒果过敏。' },
    named: { en: /\ballerg(?:y|ies|ic)\b/i, zh: /过敏/u },
    hint: 'allergies',
  },
  {
    slot: 'health',
    label: { en: 'Health', zh: '健康' },
    values: 'many',
    keyed: false,
    story: false,
    examples: { en: 'I have had asthma since I was a kid.', zh: '我有高血压。' },
    named: {
      en: /\b(?:health|medical|medications?|medicines?|conditions?|illness(?:es)?|diseases?|prescriptions?)\b/i,
      zh: /健康|病|药|身体状况/u,
    },
    hint: 'health (conditions and medicines)',
  },
  {
    slot: 'family',
    label: { en: 'Family', zh: '家人' },
    values: 'many',
    keyed: true,
    story: true,
    examples: { en: 'My brother is called Jonas.', zh: '我弟弟叫小明。' },
    named: { en: /\b(?:family|relatives|kids|children|parents|family members)\b/i, zh: /家人|家庭|亲人|家里人/u },
    hint: 'family',
  },
  {
    slot: 'pet',
    label: { en: 'Pet', zh: '宠物' },
    values: 'many',
    keyed: true,
    story: true,
    examples: { en: 'I have a parrot named Kiwi.', zh: '我养了一只狗，叫豆豆。' },
    named: { en: /\b(?:pets?|animals)\b/i, zh: /宠物/u },
    hint: 'pets',
  },
  {
    slot: 'like',
    label: { en: 'Something I like', zh: '喜欢的' },
    values: 'many',
    keyed: false,
    story: false,
    examples: { en: 'I love playing chess.', zh: '我喜欢下围棋。' },
    named: {
      en: /\b(?:my likes|what i like|what i love|preferences|interests|hobbies|favou?rites|favou?rite things|things i like)\b/i,
      zh: /喜好|爱好|兴趣|(?<!不)喜欢的|偏好/u,
    },
    hint: 'likes',
  },
  {
    slot: 'routine',
    label: { en: 'Something I do regularly', zh: '经常做的事' },
    values: 'many',
    keyed: false,
    story: false,
    examples: { en: 'Most evenings I practise the cello.', zh: '我每个周末都去钓鱼。' },
    named: {
      en: /\b(?:hobby|hobbies|routines?|habits?|activities|sports?|exercise|free time|spare time|pastimes?)\b/i,
      zh: /爱好|运动|锻炼|业余|习惯|空闲/u,
    },
    hint: 'routines (what the user does regularly)',
  },
  {
    slot: 'dislike',
    label: { en: 'Something I dislike', zh: '不喜欢的' },
    values: 'many',
    keyed: false,
    story: false,
    examples: { en: 'I hate loud music.', zh: '我讨厌下雨天。' },
    named: { en: /\b(?:dislikes|what i (?:hate|dislike|do not like|don't like)|things i (?:hate|dislike))\b/i, zh: /讨厌的|不喜欢的/u },
    hint: 'dislikes',
  },
  {
    slot: 'date',
    label: { en: 'A date', zh: '日期' },
    values: 'many',
    keyed: true,
    story: false,
    examples: { en: 'My birthday is on 14 March.', zh: '我的生日是五月三日。' },
    named: { en: /\b(?:birthday|birth ?date|date of birth|anniversary|my age|how old i am)\b/i, zh: /生日|纪念日|出生日期|年龄|多大/u },
    hint: 'dates',
  },
  {
    slot: 'plan',
    label: { en: 'A plan', zh: '计划' },
    values: 'many',
    keyed: false,
    story: false,
    examples: { en: 'I am planning a trip to Norway next summer.', zh: '我打算明年去日本旅行。' },
    named: { en: /\b(?:my plans|plans|my schedule|itinerary|travel plans)\b/i, zh: /计划|打算|行程/u },
    hint: 'plans',
  },
  {
    // What held before or where the user comes from ("I grew up in Gdańsk", "I used to work at Siemens"), valued "origin:gdańsk", "work:siemens".
    slot: 'past',
    label: { en: 'From my past', zh: '过去的' },
    values: 'many',
    keyed: true,
    story: false,
    examples: { en: 'I used to live in Porto.', zh: '我以前住在大连。' },
    named: {},
  },
] as const satisfies readonly Kind[];

export type FactSlot = (typeof FACT_KINDS)[number]['slot'];
/** The slots the extractor fills: every kind but 'statement', which is for notes added by hand. */
export type TypedSlot = Exclude<FactSlot, 'statement'>;

export const FACT_SLOTS = FACT_KINDS.map((kind) => kind.slot) as [FactSlot, ...FactSlot[]];
export const TYPED_SLOTS = FACT_SLOTS.filter((slot): slot is TypedSlot => slot !== 'statement') as [TypedSlot, ...TypedSlot[]];

const slotsWhere = (test: (kind: Kind) => boolean): ReadonlySet<FactSlot> =>
  new Set<FactSlot>(FACT_KINDS.filter((kind) => test(kind)).map((kind) => kind.slot));

/** A person has one name, one home, one job and one diet at a time: a new value replaces the old one. */
export const SINGLE_VALUED_SLOTS = slotsWhere((kind) => kind.values === 'one');
export const KEYED_SLOTS = slotsWhere((kind) => kind.keyed);
export const STORY_SLOTS = slotsWhere((kind) => kind.story);

/** Each language's words for the kinds, in the list's order: [pattern, slot]. */
const namedIn = (language: 'en' | 'zh'): ReadonlyArray<readonly [RegExp, FactSlot]> =>
  FACT_KINDS.flatMap((kind) => {
    const pattern = (kind.named as Kind['named'])[language];
    return pattern ? [[pattern, kind.slot] as const] : [];
  });
export const NAMED_BY = { en: namedIn('en'), zh: namedIn('zh') };

/** The kinds as the memory model's instructions list them: "name, where they live, work, …". */
export const KIND_HINTS = FACT_KINDS.flatMap((kind) => ('hint' in kind ? [kind.hint] : [])).join(', ');
