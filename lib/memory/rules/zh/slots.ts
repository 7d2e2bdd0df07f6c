/**
 * Chinese slot patterns: one clause → the facts the user states about themselves. A change of state is read
 * through its negation (不再, 已经没有…了: the positive fact, ended); diet also through what the user eats.
 */
import { type Found, firstFound, HAN, one, type Reading } from '../fact-types';
import { healthZh } from '../health';
import { statedDate } from '../relative-dates';
import { routineZh } from '../routine';

const ZH_PARTICLES = /(?<![了啦呢哦呀吧啊嘛哈喔噢～~])[了啦呢哦呀吧啊嘛哈喔噢～~]+$/u;

function cleanZh(value: string): string {
  return value
    .replace(/^[，,：:\s]+/u, '')
    .replace(/(?<![，,。.!！?？\s])[，,。.!！?？\s]+$/u, '')
    .replace(ZH_PARTICLES, '')
    .replace(/的$/u, '')
    .trim()
    .toLowerCase()
    .slice(0, 40);
}

function cutZh(value: string): string {
  return value.split(/[，,。；;！!？?]/u)[0];
}

function splitListZh(value: string): string[] {
  return cutZh(value)
    .split(/、|以及|还有|及|跟|与|和(?=.{1,6}$)/u)
    .map(cleanZh)
    .filter((v) => v.length > 0);
}

/** Adverbs between 我 and the verb carry no fact: 我现在住在…, 我也喜欢…, 我一直吃素. */
const ZH_ADVERBS =
  /^我(?:们)?((?:现在|目前|如今|也|还|一直|已经|刚刚|刚|最近|其实|真的|本来|平时|都|就|又|才|正在|从小|从来|一般|通常|确实|的确|终于|总是|基本上|主要|挺)+)/u;

function stripZhAdverbs(s: string): string {
  return s.replace(ZH_ADVERBS, (m, adverbs: string) => m.slice(0, m.length - adverbs.length));
}

type ZhContext = { s: string; raw: string; future: boolean; recurring?: boolean; fromNegation: boolean };

export function matchZh(_clause: string, reading: Reading): Found[] {
  const s0 = reading.s;
  // A clause about one of the user's people or pets tells who they are, their dates, or that a pet is gone; never what
  // the user does or has: 我妈也少吃肉了 is no diet of the user's, 我儿子不吃香菜 ends no son.
  if (ABOUT_SOMEONE_ELSE.test(s0)) return petLossZh(s0) ?? (positiveZh(asStated(s0, reading)) ?? []).filter(ofPeople);
  const special = dietByFoodZh(s0, reading.raw) ?? workEndZh(s0) ?? petLossZh(s0) ?? cancelledPlanZh(s0) ?? movedAwayZh(s0);
  if (special) return special;
  const change = /不再|再也不|已经不|早就不|已经没有?|不.{0,12}了$|没有?.{0,12}了$/u.test(s0);
  const plain = /^我.{0,4}?(?:不(?!耐|错|过敏)|没有|没)/u.test(s0) || /^我对.+?不过敏/u.test(s0);
  const ctx = asStated(s0, reading);
  if (!change && !plain) return positiveZh(ctx) ?? [];
  const dislike = change ? null : dislikeZh(ctx);
  if (dislike) return dislike;
  const positive = stripZhAdverbs(removeNegationZh(s0));
  const found = positiveZh({ s: positive, raw: positive, future: reading.future, fromNegation: true });
  return found?.map((f) => ({ ...f, negated: true })) ?? [];
}

// A sentence-final particle (了: a change that now holds) is not part of what is stated.
const asStated = (s: string, reading: Reading): ZhContext => ({
  s: stripZhAdverbs(s).replace(ZH_PARTICLES, ''),
  raw: stripZhAdverbs(reading.raw),
  future: reading.future,
  recurring: reading.recurring,
  fromNegation: false,
});

const ofPeople = (f: Found) => f.slot === 'family' || f.slot === 'pet' || f.slot === 'date';

function removeNegationZh(s: string): string {
  return s
    .replace(/不再|再也不|早就不|已经不/u, '')
    .replace(/已经没有|没有/u, '有')
    .replace(/没(?=养|在|住|吃|是)/u, '')
    .replace(/不/u, '')
    .replace(/(?<![了啦喽])[了啦喽]+$/u, '');
}

const MATCHERS_ZH: ((ctx: ZhContext) => Found[] | null)[] = [
  nameZh,
  dateZh,
  dislikeZh,
  allergyZh,
  healthZh,
  dietZh,
  familyZh,
  petZh,
  locationZh,
  workZh,
  planZh,
  likeZh,
  surnameIntroZh,
  routineZh,
];

function positiveZh(ctx: ZhContext): Found[] | null {
  return firstFound(MATCHERS_ZH, ctx);
}

// ---- name

function zhName(text: string): string | null {
  const m = /^(?:做)?([A-Za-z][A-Za-z'. -]{0,30}|\p{Script=Han}{1,4})/u.exec(cutZh(text));
  if (!m) return null;
  let name = m[1].replace(/(?:就行|就好|就可以|好了|吧|哦|啦|呀)$/u, '');
  // A Han run may run on into the predicate ("小红住在上海"): cut at a verb or particle after two characters.
  const stop = name.search(/[是住在今和也很的]/u);
  if (HAN.test(name) && stop >= 2) name = name.slice(0, stop);
  name = cleanZh(name);
  return name && !/^(?:了|什么|啥|谁|我|你)/u.test(name) ? name.trim() : null;
}

/**
 * The user as the one named: 我叫… / 我名叫…, 我的名字（外号、小名…）是…, and anyone calling the user (…叫我…, …称我为…).
 * The name is Han or a capitalised Latin word.
 */
function nameZh({ s }: ZhContext): Found[] | null {
  const m =
    /^我(?:的)?(?:名字|姓名|全名|真名|大名|外号|小名|昵称|网名|英文名)(?:是|叫)(.+)$/u.exec(s) ??
    /^我(?:叫做|叫|名叫)(?!了)(.+)$/u.exec(s) ??
    /(?:叫|称|喊)(?:呼)?我(?:为|做|作)?(.+?)(?:就(?:行|好|可以)了?|吧|好了)?$/u.exec(s);
  const name = m && zhName(m[1]);
  return name && (HAN.test(name[0]) || /^\p{Lu}/u.test(m[1].trim())) ? one('name', name.toLowerCase()) : null;
}

const SURNAMES = new Set(
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤欧司上诸',
);

/** 我是张三: a short all-Han phrase starting with a common surname, or a Latin name, is a self-introduction. */
function surnameIntroZh({ s }: ZhContext): Found[] | null {
  const m = /^我是([A-Z][A-Za-z'-]+(?: [A-Z][A-Za-z'-]+)?|\p{Script=Han}{2,3})$/u.exec(s);
  if (!m) return null;
  const name = m[1];
  if (/^[A-Za-z]/.test(name)) return null;
  return SURNAMES.has(name[0]) && !/[人者师员生家长手士们的个]$/u.test(name) ? one('name', name) : null;
}

// ---- dates

const ZH_OCCASIONS: Record<string, string> = { 生日: 'birthday', 出生日期: 'birthday', 结婚纪念日: 'anniversary', 纪念日: 'anniversary' };

function dateZh({ raw: s }: ZhContext): Found[] | null {
  let m = new RegExp(`^我(?:们)?(?:的)?(?:(${REL_ZH})的?)?(生日|出生日期|结婚纪念日|纪念日)(?:是|在|为|：|:)?(.+)$`, 'u').exec(s);
  if (m) {
    const date = statedDate(m[3]);
    if (!date) return null;
    // Own occasions share the English keys ("birthday:05-03"); someone else's keep the Chinese words ("女儿的生日:06-01").
    return one('date', `${m[1] ? `${relKey(m[1])}的${m[2]}` : ZH_OCCASIONS[m[2]]}:${date}`);
  }
  m = /^我(?:是)?(.+?)(?:出生|生)的?$/u.exec(s);
  const date = m && statedDate(m[1]);
  return date ? one('date', `birthday:${date}`) : null;
}

// ---- likes and dislikes

const ZH_INTENSIFIERS = '(?:很|非常|特别|最|更|真的|超|超级|挺|也|还|一直|都|蛮|比较|好|太|相当|尤其|有点|一点都|一点也|实在|真|本来就)*';
const ZH_OBJECT_VERB = /^(?:吃|喝|看|听|玩|上了|上)/u;

function zhObjects(object: string): string[] {
  if (/^(?:你|您|这个|那个|这样|那样|它|这|那|他|她)/u.test(object)) return [];
  return splitListZh(object.replace(ZH_OBJECT_VERB, '').split(/胜过|多过|而不是/u)[0]);
}

function likeZh({ s }: ZhContext): Found[] | null {
  let m = /^我(?:最|最最)喜欢的(.(?:(?!就是)[^\n\r\u2028\u2029是])*)(?:是|就是)(.+)$/u.exec(s);
  if (m) return zhObjects(m[2]).map((value) => ({ slot: 'like', value }));
  m = /^(.+?)是我最(?:喜欢|爱)的(.*)$/u.exec(s);
  if (m) return zhObjects(m[1]).map((value) => ({ slot: 'like', value }));
  m =
    /^我的(?:爱好|兴趣|兴趣爱好|业余爱好)(?:是|有|包括)(.+)$/u.exec(s) ??
    /^我是(.+?)的(?:粉丝|忠实粉丝|铁粉|爱好者|迷)$/u.exec(s) ??
    /^我是(.+?)(?:迷|爱好者|粉)$/u.exec(s) ??
    /^我对(.+?)(?:很|非常|特别|超级)?感兴趣$/u.exec(s) ??
    new RegExp(`^我${ZH_INTENSIFIERS}(?:喜欢|爱|热爱|喜爱|钟爱|痴迷|迷上了|爱上了|迷恋|着迷于|偏爱|爱好|沉迷于?)(.+)$`, 'u').exec(s) ??
    // A switch of habit names what the user has now: 我改喝…, 我换成用….
    /^我(?:改|换|转)(?:成|为)?((?:吃|喝|用|听|玩|看).+)$/u.exec(s);
  return m ? zhObjects(m[1]).map((value) => ({ slot: 'like', value })) : null;
}

function dislikeZh({ s }: ZhContext): Found[] | null {
  let m = /^我最(?:讨厌|不喜欢|受不了)的(.(?:(?!就是)[^\n\r\u2028\u2029是])*)(?:是|就是)(.+)$/u.exec(s);
  if (m) return zhObjects(m[2]).map((value) => ({ slot: 'dislike', value }));
  m = new RegExp(`^我${ZH_INTENSIFIERS}(?:讨厌|不喜欢|不太喜欢|不怎么喜欢|不爱|受不了|忍受不了|恨|厌恶|反感|害怕|怕|烦)(.+)$`, 'u').exec(s);
  return m ? zhObjects(m[1]).map((value) => ({ slot: 'dislike', value })) : null;
}

// ---- allergies

const ALLERGY_DEGREES = ['有点', '有些', '非常', '很', '特别', '严重', '比较', '有一点', '轻微', '会'];

/**
 * 我对X(很|有点…)*过敏(症)?: X is the shortest start of what comes before 过敏 that leaves only words of
 * degree after it. Read from the end, where a pattern trying each start would read the degrees again from each.
 */
function allergenAfterDui(s: string): string | undefined {
  const before = /^我对(.+)过敏(?:症)?$/u.exec(s)?.[1];
  if (before === undefined) return undefined;
  // degreesFrom[i]: before.slice(i) is words of degree only.
  const degreesFrom = new Uint8Array(before.length + 1);
  degreesFrom[before.length] = 1;
  for (let i = before.length - 1; i >= 1; i--) {
    degreesFrom[i] = ALLERGY_DEGREES.some((word) => before.startsWith(word, i) && degreesFrom[i + word.length]) ? 1 : 0;
  }
  return before.slice(0, degreesFrom.indexOf(1, 1));
}

function allergyZh({ s }: ZhContext): Found[] | null {
  const allergen =
    allergenAfterDui(s) ??
    /^我(?:的)?过敏原(?:是|有)(.+)$/u.exec(s)?.[1] ??
    /^我(?:有)?(?!有点|有些|很|会|对)(.+?)过敏(?:症)?$/u.exec(s)?.[1];
  if (allergen !== undefined) return splitListZh(allergen).map((value) => ({ slot: 'allergy', value }));
  return /^我(?:有)?乳糖不耐(?:受)?(?:症)?$/u.test(s) ? one('allergy', '乳糖') : null;
}

// ---- diet

function zhDietWord(word: string): string {
  if (/纯素|全素|严格素/u.test(word)) return 'vegan';
  if (/鱼素|海鲜素/u.test(word)) return 'pescatarian';
  if (/弹性素/u.test(word)) return 'flexitarian';
  if (/素|斋/u.test(word)) return 'vegetarian';
  if (/生酮/u.test(word)) return 'keto';
  if (/清真/u.test(word)) return 'halal';
  if (/无麸质/u.test(word)) return 'gluten-free';
  return cleanZh(word);
}

function dietZh({ s }: ZhContext): Found[] | null {
  const m =
    /^我(?:是|成了|变成了|成为了)?(?:一个|一名|个)?(纯素食者|纯素主义者|素食主义者|素食者|鱼素者|弹性素食者|素食的人|吃素的人?|吃素的)(?:了)?$/u.exec(
      s,
    ) ??
    /^我(?:吃|在吃|开始吃|改吃|只吃|坚持吃|改成吃|开始)(纯素|全素|素食|素|斋|鱼素|海鲜素|清真|生酮(?:饮食)?)(?:的)?(?:了)?$/u.exec(s) ??
    /^我(?:在|正在)?(?:做|进行|坚持|遵循)?(生酮饮食|生酮|低碳水饮食|无麸质饮食)(?:了)?$/u.exec(s) ??
    /^我的饮食(?:是|习惯是)(.+)$/u.exec(s);
  return m ? one('diet', zhDietWord(m[1])) : null;
}

/** Diet said through food: 我不吃肉 (vegetarian), 我又开始吃海鲜了 / 现在也吃鱼 (pescatarian); one meal (午饭吃了鱼) says nothing. */
function dietByFoodZh(s: string, raw: string): Found[] | null {
  const avoided = /^我(?:已经|现在)?(?:不再|再也不|早就不|已经不|不|戒了|戒掉了|戒)(?:吃|碰)?(?:任何)?(.+?)了?$/u.exec(s)?.[1];
  if (avoided) {
    if (/动物|肉蛋奶|肉和奶|蛋奶/u.test(avoided)) return one('diet', 'vegan');
    return /^(?:肉|荤|肉类)/u.test(avoided) ? one('diet', 'vegetarian') : null;
  }
  if (!/^我.{0,6}?吃/u.test(s) || !/又|重新|开始|现在|也|了$|恢复|经常/u.test(raw) || /[早午晚]饭|[早午晚]餐|一顿/u.test(s)) return null;
  const food = foodEaten(s);
  if (!food) return null;
  return one('diet', /肉|荤/u.test(food) ? 'omnivore' : /鱼|海鲜|虾/u.test(food) ? 'pescatarian' : 'vegetarian');
}

/** The first food named after 吃 on a line (as /吃.*?(牛肉|…)/ finds it, without reading the line again from every 吃). */
function foodEaten(s: string): string | undefined {
  for (const line of s.split(/[\n\r\u2028\u2029]/u)) {
    const eat = line.indexOf('吃');
    const food = eat < 0 ? undefined : /牛肉|猪肉|鸡肉|羊肉|肉|荤|鱼|海鲜|虾|蛋|奶/u.exec(line.slice(eat + 1))?.[0];
    if (food) return food;
  }
  return undefined;
}

// ---- family and pets

const RELS_ZH = [
  '外甥女',
  '男朋友',
  '女朋友',
  '未婚夫',
  '未婚妻',
  '双胞胎',
  '老妈',
  '老爸',
  '妈妈',
  '母亲',
  '爸爸',
  '父亲',
  '父母',
  '爸妈',
  '姐姐',
  '妹妹',
  '哥哥',
  '弟弟',
  '兄弟',
  '姐妹',
  '老婆',
  '妻子',
  '太太',
  '爱人',
  '老公',
  '丈夫',
  '儿子',
  '女儿',
  '孩子',
  '小孩',
  '宝宝',
  '爷爷',
  '奶奶',
  '外公',
  '外婆',
  '姥姥',
  '姥爷',
  '孙子',
  '孙女',
  '叔叔',
  '阿姨',
  '舅舅',
  '姑姑',
  '伯伯',
  '表哥',
  '表姐',
  '表弟',
  '表妹',
  '堂哥',
  '堂姐',
  '堂弟',
  '堂妹',
  '男友',
  '女友',
  '侄子',
  '侄女',
  '外甥',
  '妈',
  '爸',
  // Said alone in speech as 妈 and 爸 are (我姐在深圳); 我哥们 is a friend.
  '姐',
  '哥(?!们)',
  '弟',
  '妹',
];
const REL_ZH = RELS_ZH.join('|');
const SPECIES_ZH: Record<string, string> = {
  猫咪: '猫',
  小猫: '猫',
  喵星人: '猫',
  猫: '猫',
  狗狗: '狗',
  小狗: '狗',
  汪星人: '狗',
  狗: '狗',
  小兔子: '兔子',
  兔子: '兔子',
  兔: '兔子',
  仓鼠: '仓鼠',
  鹦鹉: '鹦鹉',
  小鸟: '鸟',
  鸟: '鸟',
  金鱼: '金鱼',
  鱼: '鱼',
  乌龟: '乌龟',
  龟: '乌龟',
  蛇: '蛇',
  蜥蜴: '蜥蜴',
  马: '马',
  荷兰猪: '豚鼠',
  豚鼠: '豚鼠',
  刺猬: '刺猬',
  龙猫: '龙猫',
  宠物: '宠物',
};
const SPECIES_ZH_RE = Object.keys(SPECIES_ZH)
  .sort((a, b) => b.length - a.length)
  .join('|');
/** 我 + one of the user's people or pets opens a clause about them (我表姐…, 我同事…, 我家猫…), not about the user. */
export const ABOUT_SOMEONE_ELSE = new RegExp(
  `^我(?:的|们(?:家)?的?|家的?)?(?:大|小|二|三|亲|双胞胎)?(?:${REL_ZH}|${SPECIES_ZH_RE}|朋友|同事|同学|室友|邻居|老板|领导|上司|导师|老师|客户|房东)`,
  'u',
);
const REL_CANON: Record<string, string> = {
  妈: '妈妈',
  老妈: '妈妈',
  母亲: '妈妈',
  爸: '爸爸',
  老爸: '爸爸',
  父亲: '爸爸',
  爸妈: '父母',
  姐: '姐姐',
  哥: '哥哥',
  弟: '弟弟',
  妹: '妹妹',
  小孩: '孩子',
  男友: '男朋友',
  女友: '女朋友',
};
const CN_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };
/** 两 → 2, 三 → 3, digits as digits: the counts of a family or of pets. */
const cnNumber = (text: string) => (/^\d+$/.test(text) ? Number(text) : CN_DIGITS[text]);
// A count is its whole run of digits or numerals, never a part of it with the rest read as a name.
const ZH_COUNT = '(\\d+(?!\\d)|[一二两三四五六七八九十几]+(?![一二两三四五六七八九十几]))';

function relKey(rel: string): string {
  return REL_CANON[rel] ?? rel;
}

/** The name after 叫 / 名叫 / 的名字是, or a Latin name right after the noun (我姐姐Anna…). */
function zhEntityName(rest: string): string | undefined {
  const called = /^[，,]?(?:它|他|她)?(?:叫做|叫|名叫|名字叫|的名字是|的名字叫)(.+)$/u.exec(rest);
  if (called) return zhName(called[1]) ?? undefined;
  const latin = /^([A-Z][A-Za-z'-]+)/.exec(rest);
  return latin ? latin[1].toLowerCase() : undefined;
}

function keyed(key: string, name?: string, count?: number): string {
  return name ? `${key}:${name}` : count && count > 1 ? `${key}:${count}` : key;
}

function familyZh({ s }: ZhContext): Found[] | null {
  let m = new RegExp(`^我(?:的)?(?:大|小|二|三|亲|双胞胎)?(${REL_ZH})(.+)$`, 'u').exec(s);
  if (m && !/^的?(?:生日|纪念日)/u.test(m[2])) {
    const name = zhEntityName(m[2]);
    // The rest is the relative's life (我表哥在深圳当律师), not the user's: the fact keeps who, and the name.
    const at = name ? s.toLowerCase().indexOf(name, s.length - m[2].length) : -1;
    const said = at >= 0 ? s.slice(0, at + name!.length) : s.slice(0, s.length - m[2].length);
    return [{ slot: 'family', value: keyed(relKey(m[1]), name), said }];
  }
  m = /^我(?:们)?(?:家)?有(.+)$/u.exec(s);
  if (m) {
    const item = new RegExp(`^${ZH_COUNT}?(?:个|位|名)?(?:大|小)?(${REL_ZH})(.*)$`, 'u');
    const found = m[1]
      .split(/和|、|，|,|还有/u)
      .map((part) => item.exec(part))
      .filter((x): x is RegExpExecArray => x !== null)
      .map((x) => ({ slot: 'family' as const, value: keyed(relKey(x[2]), zhEntityName(x[3]), x[1] ? cnNumber(x[1]) : 1) }));
    if (found.length) return found;
  }
  m = new RegExp(`^(.{1,8}?)是我(?:的)?(${REL_ZH})$`, 'u').exec(s);
  if (m) return one('family', keyed(relKey(m[2]), cleanZh(m[1])));
  m = /^我是(?:一个|一位|个)?(?:(.{1,2})个孩子的)?(?:妈妈|爸爸|母亲|父亲|宝妈|奶爸)$/u.exec(s);
  if (m) return one('family', keyed('孩子', undefined, m[1] ? cnNumber(m[1]) : 1));
  if (/^我(?:已经)?(?:结婚|成家)了?$|^我已婚$/u.test(s)) return one('family', '已婚');
  if (/^我(?:已经)?离婚了?$|^我离异$/u.test(s)) return one('family', '离婚');
  if (/^我(?:已经)?订婚了?$/u.test(s)) return one('family', '订婚');
  return /^我(?:是|还是)?单身$/u.test(s) ? one('family', '单身') : null;
}

function petZh({ s }: ZhContext): Found[] | null {
  let m = new RegExp(
    `^我(?:们)?(?:家)?(?:养了|养着|养|有|领养了|收养了|买了|新养了|捡了|又养了|捡到了)${ZH_COUNT}?(?:只|条|个|头|匹|隻)?(?:([^，。！？的]{1,8})的)?(?:小)?(${SPECIES_ZH_RE})(.*)$`,
    'u',
  ).exec(s);
  // A name may come before the species, in a modifier: 一只叫豆豆的狗.
  // The modifier is at most 8 characters long: so is the name in it.
  const namedBefore = m?.[2] && /(?:叫|名叫|叫做)(.{1,8})$/u.exec(m[2])?.[1];
  if (m) return one('pet', keyed(SPECIES_ZH[m[3]], namedBefore || zhEntityName(m[4]), m[1] ? cnNumber(m[1]) : 1));
  m = new RegExp(`^我(?:的|家的?|们家的?)(${SPECIES_ZH_RE})(.+)$`, 'u').exec(s);
  if (m) return one('pet', keyed(SPECIES_ZH[m[1]], zhEntityName(m[2])));
  return keptAnimalZh(s);
}

/**
 * What the user keeps (养) is a pet whatever its kind is called, when an animal's classifier counts it or it has a
 * name: 我养了一只金毛，叫元宝, 我养了一只叫豆豆的柯基, 我自己养的英短叫年糕. 我养了很多花 counts no animal and names nothing.
 */
function keptAnimalZh(s: string): Found[] | null {
  const named = /^我(?:们)?(?:家)?(?:自己)?养的([^，,。的叫]{1,5})(?:叫做|叫|名叫)(.+)$/u.exec(s);
  if (named) return one('pet', keyed(SPECIES_ZH[named[1]] ?? named[1], zhName(named[2]) ?? undefined));
  const counted = new RegExp(
    `^我(?:们)?(?:家)?(?:自己)?(?:养了|养着|领养了|收养了|捡了)${ZH_COUNT}(?:只|条|头|匹|隻)(?:叫([^，,。的]{1,6})的)?([^，,。的叫]{1,5})(?:[，,](?:它|他|她)?(?:叫做|叫|名叫)(.+))?$`,
    'u',
  ).exec(s);
  if (!counted) return null;
  const name = counted[2] ?? (counted[4] ? zhName(counted[4]) : undefined) ?? undefined;
  return one('pet', keyed(SPECIES_ZH[counted[3]] ?? counted[3], name, cnNumber(counted[1])));
}

function petLossZh(s: string): Found[] | null {
  let m = new RegExp(
    `^我(?:的|家的?|们家的?)(${SPECIES_ZH_RE})([A-Za-z]+|\\p{Script=Han}{0,3}?)?(?:死了|去世了|走了|丢了|跑丢了|不见了|没了)`,
    'u',
  ).exec(s);
  if (m) return one('pet', keyed(SPECIES_ZH[m[1]], m[2] ? m[2].toLowerCase() : undefined), true);
  m = new RegExp(`^我(?:们)?把(?:我的|家里的|我家的)?(${SPECIES_ZH_RE})送(?:人|走)了`, 'u').exec(s);
  return m ? one('pet', SPECIES_ZH[m[1]], true) : null;
}

// ---- location

function zhPlace(text: string): string | null {
  const v = cleanZh(cutZh(text)).replace(/^(?:了|在)/u, '');
  return v && !/^(?:这|那|这里|那里|这儿|那儿|的)/u.test(v) ? v : null;
}

function locationZh({ s }: ZhContext): Found[] | null {
  const m =
    /^我(?:们)?(?:家)?住在(.+)$/u.exec(s) ??
    /^我(?:们)?(?:家)?住(?!的|过|址)(.+)$/u.exec(s) ??
    /^我(?:们)?(?:把?家|一家|全家)?(?:从.+?)?搬(?:家)?(?:到|去|来)了?(.+?)(?:去|来|住|生活|定居)?$/u.exec(s) ??
    /^我(?:们)?(?:是)?在(.+?)(?:生活|居住|定居|安家|住|落户|长大|出生)的?$/u.exec(s) ??
    // Sent to work somewhere (公司把我调回上海了, 我被派到深圳): that is where the user lives now.
    /^(?:\p{Script=Han}{1,6}把)?我(?:们)?被?(?:调|派|外派)(?:回|到|去|往)了?(\p{Script=Han}{2,8}?)(?:分公司|总部|办公室|工作|上班|了)*$/u.exec(
      s,
    ) ??
    // 在厦门租了套房子, 在成都买了房: a home got somewhere.
    /^我(?:们)?在(\p{Script=Han}{2,8}?)(?:租|买|找|安)了?(?:一?[套间个处])?(?:房|房子|公寓|住处|家)/u.exec(s) ??
    /^我(?:是)?来自(.+)$/u.exec(s) ??
    /^我(?:是)?从(.+?)来的?$/u.exec(s) ??
    /^我(?:的)?(?:家|老家|家乡|故乡)(?:在|是)(.+)$/u.exec(s) ??
    /^我(?:的)?(?:地址|住址|家庭住址)(?:是|在)(.+)$/u.exec(s);
  if (m) {
    const place = zhPlace(m[1]);
    return place ? one('location', place) : null;
  }
  const person = /^我是(.{1,8}?)人$/u.exec(s);
  if (person && !/[的个好坏男女大小老年轻成]/u.test(person[1])) return one('location', cleanZh(person[1]));
  return null;
}

function movedAwayZh(s: string): Found[] | null {
  const m = /^我(?:们)?(?:已经)?(?:搬离了?|离开了?|搬出了?)(.+)$/u.exec(s);
  const place = m && zhPlace(m[1]);
  return place ? one('location', place, true) : null;
}

// ---- work

const ZH_PROFESSION =
  /(?:师|员|工|家|生|长|手|匠|警|官|医|士|经理|老板|主管|总监|顾问|会计|护士|医生|律师|老师|教授|学生|司机|厨师|记者|作家|演员|模特|主播|博主|编辑|翻译|店主|创始人|合伙人|ceo|cto|实习生|公务员|自由职业者|程序员|码农|保安|保姆|快递员|外卖员|农民|工人|军人|警察|职员|白领|销售|客服|前台|秘书|助理|hr|up主|网红|老板娘|宝妈|全职妈妈|家庭主妇)$/iu;
const NOT_PROFESSION = /(?:先生|女士|男士|家长|新手|老家|素食者|爱好者|患者|读者|初学者|粉丝|好学生|一生|大家|人家|自家|独生子)$/u;

const WORKPLACE =
  /^(?:一家|一所|一间)|(?:公司|集团|工厂|医院|诊所|学校|银行|商店|餐厅|事务所|研究所|研究院|机构|单位|工作室|出版社|报社|电视台)$/u;

function isZhProfession(phrase: string): boolean {
  return ZH_PROFESSION.test(phrase) && !NOT_PROFESSION.test(phrase);
}

const ZH_STUDENT: Record<string, string> = {
  研: '研究生',
  博: '博士生',
  硕: '硕士生',
  大: '大学生',
  本: '大学生',
  高: '高中生',
  初: '初中生',
  小: '小学生',
};

function workZh({ s }: ZhContext): Found[] | null {
  // 在…上班, and 去…上班 for a job that starts (下周一起我去…上班).
  let m =
    /^我(?:们)?[在去到进](.+?)(?:工作|上班|任职|供职|实习|打工|做事|就职|报到|入职)$/u.exec(s) ??
    /^我(?:们)?(?:正式)?入职(?:了)?(.+)$/u.exec(s);
  if (m) return one('work', cleanZh(m[1]).replace(/^(?:一家|一个|一所|一间|家|个)/u, ''));
  m = /^我(?:在)?(?:读|念|上)(研究生|博士|硕士|大学|本科|高中|初中|小学|大[一二三四]|研[一二三])$/u.exec(s);
  if (m) return one('work', ZH_STUDENT[m[1][0]] ?? `${m[1]}生`);
  // 在… reaches up to the first 当/做/担任 with something after it, as a lazy 在.+? would, read once. At a workplace
  // (在一家游戏公司, 在医院: a business's classifier, or an institution's head noun), what is done there is the job.
  m = /^我(?:在(.(?:(?!(?:转行|改行|跳槽)?(?:去)?(?:当|做|担任).).)*))?(?:转行|改行|跳槽)?(?:去)?(?:当|做|担任)(.+)$/u.exec(s);
  const role = m ? cleanZh(cutZh(m[2])) : '';
  if (m && (isZhProfession(role) || (WORKPLACE.test(m[1] ?? '') && role.length >= 2))) return one('work', role);
  m = /^我(?:是|是一名|是一个|是个|是一位|是名|是位)(.+)$/u.exec(s);
  if (m) {
    const role = cleanZh(m[1]).replace(/^(?:一名|一个|一位|个|名|位)/u, '');
    if (isZhProfession(role)) return one('work', role);
  }
  m = /^我(?:的)?(?:工作|职业|职位|岗位)是(.+)$/u.exec(s) ?? /^我(?:从事|做)(.+?)(?:工作|行业|方面的工作)$/u.exec(s);
  if (m) return one('work', cleanZh(m[1]).replace(/^(?:一名|一个|一位|个|名|位)/u, ''));
  if (/^我(?:已经)?退休了?$/u.test(s)) return one('work', '退休');
  m = /^我在(.+?)(?:读书|上学|读大学|读研|读博|念书|上大学)$/u.exec(s);
  return m ? one('work', `${cleanZh(m[1])}的学生`) : null;
}

function workEndZh(s: string): Found[] | null {
  let m = /^我(?:已经)?从(.+?)(?:辞职|离职)了?$/u.exec(s);
  // 原来的公司, 之前的单位: whatever job it was, not a value.
  if (m) return one('work', /^(?:原来|之前|以前|上一家|前|老)的?(?:公司|单位|工作|东家)$/u.test(m[1]) ? '' : cleanZh(m[1]), true);
  m = /^我(?:已经)?(?:辞职|离职|被(?:裁|裁员|辞退|解雇|开除|炒鱿鱼)|失业|丢了工作|把工作辞了)/u.exec(s);
  return m ? one('work', '', true) : null;
}

// ---- plans

const ZH_PLAN_VERB =
  /^(?:去|学|考|买|搬|参加|结婚|换|开始|回|旅行|旅游|出国|留学|报名|辞职|创业|跑|爬|看望|拜访|见|装修|生|养|读|申请|办)/u;
const ZH_NOT_PLAN = /^(?:知道|问|想|说|让你|请你|了解|确认|看看你|要你)/u;

function zhPlanValue(text: string): string | null {
  const v = cleanZh(cutZh(text)).replace(/^(?:一个|一场|个|场)/u, '');
  return v && !ZH_NOT_PLAN.test(v) && !/你|您/u.test(v) ? v : null;
}

function planZh({ s, future, fromNegation }: ZhContext): Found[] | null {
  let m =
    /^我(?:们)?(?:打算|计划|准备|决定|预计|正准备|正打算|正计划)(?:要)?(.+)$/u.exec(s) ??
    /^我(?:的)?(?:计划|目标|梦想|新年愿望|愿望)是(.+)$/u.exec(s);
  if (m) {
    const v = zhPlanValue(m[1]);
    return v ? one('plan', v) : null;
  }
  m = /^我(?:们)?(?:想要|想|要|将要|将|会|得|需要|必须)(.+)$/u.exec(s);
  if (m) {
    const object = m[1];
    const modal = s.slice(1, s.length - object.length);
    const strong = /想要|想|要|将要|将|会/u.test(modal) && ZH_PLAN_VERB.test(object);
    if (future || strong) {
      const v = zhPlanValue(object);
      return v ? one('plan', v) : null;
    }
    return null;
  }
  m = /^我(?:们)?(去.+)$/u.exec(s);
  if (m && (future || fromNegation)) {
    const v = zhPlanValue(m[1]);
    return v ? one('plan', v) : null;
  }
  m = /^我(?:们)?(?:有|有个|有一个|有一场)(.{0,6}?(?:考试|面试|约会|会议|旅行|婚礼|手术|比赛|预约|演出))/u.exec(s);
  const exam = m && zhPlanValue(m[1]);
  if (exam && future) return one('plan', exam);
  return null;
}

function cancelledPlanZh(s: string): Found[] | null {
  const m = /^我(?:们)?(?:已经)?取消了(.+)$/u.exec(s);
  const v = m && zhPlanValue(m[1].replace(/的(?:旅行|计划|行程)$/u, ''));
  return v ? one('plan', v, true) : null;
}
