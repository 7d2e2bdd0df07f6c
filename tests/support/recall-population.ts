/**
 * Made-up people for recall-isolation.test.ts: each tells the same kinds of things (name, city,
 * pet, employer, a hike with a friend) in English or Chinese, with values of their own. Values are
 * invented words, so a value found in someone else's context can only have come from its owner.
 */

type Lang = 'en' | 'zh';
type Turn = [user: string, assistant: string];
type ValueKind = 'name' | 'city' | 'pet' | 'company' | 'friend' | 'place';
export type Person = {
  index: number;
  lang: Lang;
  values: Record<ValueKind, string>;
  /** The conversation where they say who they are, then talk of other things. */
  aboutMe: Turn[];
  /** The conversation about the hike. */
  hike: Turn[];
  /** What they will ask (in either language). */
  questions: string[];
};

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key]);

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const isHan = (value: string) => /^\p{Script=Han}+$/u.test(value);

/** Whether a text holds a value: Chinese anywhere, other words whole (case aside). */
export function mentions(text: string, value: string): boolean {
  if (isHan(value)) return text.includes(value);
  return new RegExp(`(?<!\\p{L})${value}(?!\\p{L})`, 'iu').test(text);
}

const SYLLABLES = [
  'ba',
  'de',
  'fi',
  'go',
  'ku',
  'la',
  'me',
  'ni',
  'po',
  'ru',
  'sa',
  'te',
  'vi',
  'zo',
  'tha',
  'bre',
  'dro',
  'kri',
  'sto',
  'glu',
];
const CODAS = ['', 'n', 'r', 'l', 'k', 's', 'th', 'm'];
/** An invented word of three syllables, e.g. "Brokavin". */
function inventedWord(random: Random): string {
  const word = [pick(random, SYLLABLES), pick(random, SYLLABLES), pick(random, SYLLABLES)].join('') + pick(random, CODAS);
  return word[0].toUpperCase() + word.slice(1);
}

const chars = (text: string) => [...text];
const HAN_POOLS = {
  surname: ['欧阳', '司马', '上官', '诸葛', '慕容', '东方', '皇甫', '独孤', '令狐', '尉迟', '公孙', '宇文', '夏侯'],
  given: chars('岚青澈翊珩瑾昀璟曦玥骁沅霁晗煜筠'),
  cityHead: chars('沐澜汀蔚棠芷溆漓泠渚鄞邛'),
  cityTail: chars('川州阳宁源浦泽陵'),
  pet: chars('豆球毛团糖果米妞宝咪嘟胖'),
  brandHead: chars('云星晨锦翰辰墨弈'),
  brandTail: chars('帆耀途跃策铭'),
  brandKind: ['科技', '传媒', '物流'],
  friendSurname: chars('林陈周吴郑孙杨何'),
  friendGiven: chars('晓婷浩宇涵嘉怡'),
  peakHead: chars('翠碧紫苍雁栖'),
  peakTail: chars('屏霞岩峰峦崖'),
};

function chineseValue(random: Random, kind: ValueKind): string {
  const p = HAN_POOLS;
  switch (kind) {
    case 'name':
      return pick(random, p.surname) + pick(random, p.given) + (random() < 0.5 ? pick(random, p.given) : '');
    case 'city':
      return pick(random, p.cityHead) + pick(random, p.cityTail);
    case 'pet': {
      const first = pick(random, p.pet);
      return first + (random() < 0.7 ? first : pick(random, p.pet));
    }
    case 'company':
      return pick(random, p.brandHead) + pick(random, p.brandTail) + pick(random, p.brandKind);
    case 'friend':
      return pick(random, p.friendSurname) + pick(random, p.friendGiven);
    case 'place':
      return `${pick(random, p.peakHead)}${pick(random, p.peakTail)}山`;
  }
}

const EN = {
  name: ['My name is {name}.', "I'm called {name}, by the way.", 'Call me {name}.'],
  city: ['I live in {city}.', "I'm based in {city} these days.", 'I moved to {city} last spring.'],
  pet: ['I have a dog named {pet}.', 'My cat is called {pet}.', 'Our parrot {pet} talks all day.'],
  company: ['I work as a {title} at {company}.', 'I work at {company} as a {title}.', "I'm a {title} for {company}."],
  titles: ['nurse', 'baker', 'pilot', 'plumber', 'librarian', 'chemist', 'tailor', 'florist', 'dentist', 'carpenter'],
  acks: ['Noted.', 'Got it, thanks for telling me.', 'Good to know!', 'Thanks, I will keep that in mind.'],
  hike: [
    ['Last weekend I hiked up Mount {place} with my friend {friend}.', 'That sounds lovely. How was the view from Mount {place}?'],
    ['{friend} carried the snacks, and the view was great.', 'Glad you two enjoyed it.'],
  ],
  filler: ['How do I {task} (question {n})?', 'Step by step, carefully (answer {n}).'],
  tasks: ['boil an egg', 'fold a shirt', 'clean a pan', 'tie a knot', 'plant basil', 'sharpen a knife'],
  questions: [
    'What is my name?',
    'Where do I live?',
    'What is my pet called?',
    'Where do I work?',
    'Who did I go hiking with?',
    'Which mountain did I climb last weekend?',
    'Tell me everything you know about me.',
  ],
};

const ZH = {
  name: ['我叫{name}。', '我的名字是{name}。'],
  city: ['我住在{city}。', '我搬到了{city}。'],
  pet: ['我家有一只狗叫{pet}。', '我的猫叫{pet}。'],
  company: ['我在{company}当{title}。'],
  titles: ['工程师', '护士', '老师', '会计', '厨师', '设计师'],
  acks: ['好的，记住了。', '谢谢告诉我。', '明白。'],
  hike: [
    ['上周末我和朋友{friend}去{place}爬山了。', '听起来很棒！{place}的风景怎么样？'],
    ['{friend}带了零食，风景很美。', '你们玩得开心就好。'],
  ],
  filler: ['怎么{task}？（问题{n}）', '一步一步来，慢慢做。（回答{n}）'],
  tasks: ['煮鸡蛋', '叠衬衫', '洗锅', '打绳结', '种罗勒'],
  questions: [
    '我叫什么名字？',
    '我住在哪里？',
    '我的宠物叫什么？',
    '我在哪里工作？',
    '我和谁去爬山了？',
    '上周末我去哪座山了？',
    '说说你知道的关于我的一切。',
  ],
};

const KINDS: ValueKind[] = ['name', 'city', 'pet', 'company', 'friend', 'place'];
const FACT_KINDS = ['name', 'city', 'pet', 'company'] as const;

function fillers(random: Random, lang: Lang, count: number): Turn[] {
  const words = lang === 'en' ? EN : ZH;
  return Array.from({ length: count }, (_, n) => {
    const values = { task: pick(random, words.tasks), n: String(n) };
    return [fill(words.filler[0], values), fill(words.filler[1], values)];
  });
}

function person(random: Random, index: number, values: Record<ValueKind, string>, lang: Lang, questionsEach: number): Person {
  const words = lang === 'en' ? EN : ZH;
  const slots = { ...values, title: pick(random, words.titles) };
  const statements: Turn[] = shuffled(random, FACT_KINDS).map((kind) => [fill(pick(random, words[kind]), slots), pick(random, words.acks)]);
  const hike = words.hike.map(([user, assistant]): Turn => [fill(user, slots), fill(assistant, slots)]);
  // Mostly their own language, sometimes the other.
  const asked = Array.from({ length: questionsEach }, () =>
    pick(random, random() < 0.75 ? words.questions : (lang === 'en' ? ZH : EN).questions),
  );
  return {
    index,
    lang,
    values,
    aboutMe: [...statements, ...fillers(random, lang, 2 + Math.floor(random() * 7))],
    hike: [...hike, ...fillers(random, lang, Math.floor(random() * 5))],
    questions: [...new Set(asked)],
  };
}

function everything(p: Person): string {
  return [...p.aboutMe, ...p.hike].flat().concat(p.questions).join('\n');
}

/** Values no one shares and no one else's words contain. Bounded: gives up after 20 draws of one value. */
function distinctValues(random: Random, langs: Lang[], fixedText: string): Array<Record<ValueKind, string>> {
  const taken: string[] = [];
  const clashes = (value: string) => mentions(fixedText, value) || taken.some((other) => mentions(other, value) || mentions(value, other));
  return langs.map((lang) => {
    const values = {} as Record<ValueKind, string>;
    for (const kind of KINDS) {
      let value = '';
      for (let attempt = 0; attempt < 20 && (!value || clashes(value)); attempt++)
        value = lang === 'en' ? inventedWord(random) : chineseValue(random, kind);
      if (clashes(value)) throw new Error(`no distinct ${lang} ${kind} value after 20 draws: use more pools or fewer users`);
      taken.push(value);
      values[kind] = value;
    }
    return values;
  });
}

/**
 * `count` people from a seed. `fixedText` is what every context holds anyway (the system prompt and
 * its instructions): no value may occur in it. Checked at the end: no one's words mention another's value.
 */
export function population(seed: number, count: number, fixedText: string, questionsEach = 5): Person[] {
  const random = seededRandom(seed);
  const langs = Array.from({ length: count }, (_, i): Lang => (i % 2 === 0 ? 'en' : 'zh'));
  const allTemplates = JSON.stringify([EN, ZH]);
  const values = distinctValues(random, langs, `${fixedText}\n${allTemplates}`);
  const people = shuffled(
    random,
    langs.map((lang, i) => ({ lang, values: values[i] })),
  ).map(({ lang, values: v }, i) => person(random, i, v, lang, questionsEach));
  for (const p of people) {
    for (const other of people) {
      const clash = other !== p && KINDS.find((kind) => mentions(everything(p), other.values[kind]));
      if (clash) throw new Error(`seed ${seed}: person ${p.index}'s words mention person ${other.index}'s ${clash}`);
    }
  }
  return people;
}

export const VALUE_KINDS = KINDS;
