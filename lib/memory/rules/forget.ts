/**
 * Offline "forget" handling: spot a request to forget something about the user and work out which
 * stored facts it covers — by slot ("my address" → location), by what it names ("that I like sushi"
 * → "sushi"), or everything.
 */
import { NAMED_BY } from '@/lib/shared/fact-kinds';
import { contentFeatures, words } from '@/lib/text/text-features';
import { extractFactCandidates } from './fact-extract';
import { type ExistingFact, type FactSlot, type ForgetRequest, HAN, isChinese, splitKey } from './fact-types';

/** "forget my address", "please forget that I like sushi", "请忘记我的地址", "忘掉我住哪儿", "forget everything about me" → a request; ordinary text → null. */
export function detectForgetRequest(text: string): ForgetRequest | null {
  const t = text.trim();
  return isChinese(t) ? detectChinese(t) : detectEnglish(t);
}

/**
 * Where a request to forget names what to forget ("that I love jazz" in "Please forget that I love
 * jazz."; "我喜欢爵士乐这件事" in "请忘记我喜欢爵士乐这件事"): the part a reply must not repeat. Null for
 * text that is not such a request.
 */
export function forgetRequestObject(text: string): { start: number; end: number } | null {
  const chinese = isChinese(text.trim());
  // Both trims only cut the ends, and the quote marks are swapped one for one: offsets carry over.
  const source = chinese ? text : text.replace(/[’‘`´]/g, "'");
  const trimmed = chinese ? trimChinese(source) : trimEnglish(source);
  const match = chinese ? (ZH_BA.exec(trimmed) ?? ZH_BA_YOU.exec(trimmed) ?? ZH_VERB_FIRST.exec(trimmed)) : FORGET_EN.exec(trimmed);
  const span = match?.indices?.[chinese ? 1 : 3];
  if (!span) return null;
  const at = source.indexOf(trimmed);
  const object = trimmed.slice(span[0], span[1]);
  const start = at + span[0] + (object.length - object.trimStart().length);
  const end = at + span[1] - (object.length - object.trimEnd().length);
  return end > start ? { start, end } : null;
}

/** The kinds of fact a text names ("my address", "where I live", "怎么称呼我", "职业"): for a request to forget, or a question asked. */
export function slotsNamed(text: string): FactSlot[] {
  const t = text.trim();
  return namedIn(isChinese(t) ? ZH_SLOTS : EN_SLOTS, t);
}

const namedIn = (table: ReadonlyArray<readonly [RegExp, FactSlot]>, text: string) =>
  table.filter(([pattern]) => pattern.test(text)).map(([, slot]) => slot);

/** Which of the facts a forget request targets (by slot, or by its terms appearing in fact text/value). */
export function factsToForget(request: ForgetRequest, facts: ExistingFact[]): string[] {
  if (request.all) return facts.map((fact) => fact.id);
  const terms = request.terms.map((term) => term.toLowerCase().trim()).filter(Boolean);
  return facts
    .filter((fact) => request.slots.includes(fact.slot) || terms.some((term) => mentions(fact.text, term) || mentions(fact.value, term)))
    .map((fact) => fact.id);
}

/**
 * A term matches at a word start ("sister" in "sisters", "sushi" in "sushi:"; a Latin word right
 * after Chinese, as in "我住在Porto", starts one), or anywhere for CJK.
 */
function mentions(haystack: string, term: string): boolean {
  if (HAN.test(term)) return haystack.includes(term);
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^\\p{L}\\p{N}]|\\p{Script=Han})${escaped}`, 'iu').test(haystack);
}

function request(all: boolean, slots: FactSlot[], terms: string[]): ForgetRequest | null {
  const uniqueTerms = [...new Set(terms.map((t) => t.toLowerCase().trim()).filter(Boolean))];
  if (!all && !slots.length && !uniqueTerms.length) return null;
  return { all, slots: all ? [] : [...new Set(slots)], terms: all ? [] : uniqueTerms };
}

/** Words that carry content, as the user wrote them ("phone", "number"; not "my", "told", "about"). */
function contentWords(text: string): string[] {
  return words(text).filter((word) => {
    const [feature] = contentFeatures(word);
    return feature !== undefined && !GENERIC_EN.has(feature);
  });
}

/** The term that best names a fact: the name in "sister:anna", else the value itself; the content words when no slot pattern claims the text. */
function termsOf(text: string): string[] {
  // Only the values matter here, not when they started, so any fixed date will do for `now`.
  const typed = extractFactCandidates(text, new Date(0));
  if (!typed.length) return contentWords(text);
  return typed.map((candidate) => {
    const [key, detail] = splitKey(candidate.value);
    return detail && !/^\d+$/.test(detail) ? detail : key;
  });
}

// =============================================================================================
// English

const FORGET_VERB = "(forget|unlearn|stop remembering|do not remember|don't remember|no longer remember)";
const ERASE_VERB = '(delete|remove|erase|wipe|clear|drop|purge|scrub|get rid of|throw away|discard|wipe out)';
const POLITE =
  "(?:(?:please|pls|kindly|just|now|can you|could you|would you|will you|would you mind|i want you to|i would like you to|i'd like you to|i need you to|you should|you can|go ahead and|i'd like to ask you to|i ask you to)\\s+)*";
// The object starts with a non-blank, so the blanks before it are the verb's alone.
const FORGET_EN = new RegExp(`^${POLITE}(?:${FORGET_VERB}|${ERASE_VERB})\\b\\s*((?:\\S.*)?)$`, 'id');
/** "Forget it" / "forget about it" / "never mind": dismissals, not memory requests. */
const DISMISSAL =
  /^(?:it|about it|that|this|i said anything|i asked|i said that|what i (?:just )?(?:said|asked)|about that|the question|my question)$/i;

const MEMORY_WORDS =
  /\b(?:memor(?:y|ies)|what you know|what you remember|what you have|everything|anything|info|information|data|details|facts?|about me|that i|that my|what i (?:said|told you|mentioned|shared))\b/i;

const EN_SLOTS = NAMED_BY.en;
const EN_ENTITIES: Record<string, string[]> = {
  sister: ['sister'],
  brother: ['brother'],
  mom: ['mom', 'mother'],
  mum: ['mum', 'mother'],
  mother: ['mother', 'mom'],
  dad: ['dad', 'father'],
  father: ['father', 'dad'],
  wife: ['wife'],
  husband: ['husband'],
  partner: ['partner'],
  girlfriend: ['girlfriend'],
  boyfriend: ['boyfriend'],
  son: ['son'],
  daughter: ['daughter'],
  kid: ['kid', 'child'],
  child: ['child', 'kid'],
  baby: ['baby'],
  grandma: ['grandma', 'grandmother'],
  grandmother: ['grandmother', 'grandma'],
  grandpa: ['grandpa', 'grandfather'],
  grandfather: ['grandfather', 'grandpa'],
  aunt: ['aunt'],
  uncle: ['uncle'],
  cousin: ['cousin'],
  niece: ['niece'],
  nephew: ['nephew'],
  fiance: ['fiance'],
  dog: ['dog'],
  puppy: ['puppy', 'dog'],
  cat: ['cat'],
  kitten: ['kitten', 'cat'],
  hamster: ['hamster'],
  rabbit: ['rabbit'],
  parrot: ['parrot'],
  bird: ['bird'],
  fish: ['fish'],
  horse: ['horse'],
  turtle: ['turtle'],
  snake: ['snake'],
};
const GENERIC_EN = new Set(
  contentFeatures(
    'know knew said told mention mentioned shared thing things stuff everything anything info information detail details fact facts memory remember like love live work also please ever just favourite favorite',
  ),
);
const DOCUMENT_WORDS =
  /\b(?:essay|paragraph|sentence|line|lines|file|files|document|doc|code|text|email|message|post|photo|photos|picture|image|folder|account|draft|comment|word|words|letter|list|notes?|slide|table|row|column|cart|order|appointment|alarm|reminder|calendar|schedule|browser|history|cache|cookies)\b/i;
const ENGLISH_ALL =
  /^(?:it all|everything|all|anything|all of (?:it|this|that|them)|all (?:my|the|of my|your) (?:data|info|information|details|memories|facts|personal (?:info|information|data|details))|all memories|(?:my|the) (?:data|info|information|details|personal (?:info|information|data|details)|profile)|what(?:ever)? you (?:know|remember|have|learned|stored|saved)|me|your memory|your memories|(?:your|the) (?:whole |entire )?memory|every ?thing you know|all you know)$/i;

/** The request without the words around it that change nothing ("Ok, so …", the final full stop). */
function trimEnglish(text: string): string {
  return text
    .replace(/(?<![.!?。！？\s])[.!?。！？\s]+$/u, '')
    .replace(/^(?:(?:hey|hi|ok|okay|so|and|also|actually|oh|well|um|alright|right|now)\b[\s,]*)+/i, '')
    .trim();
}

function detectEnglish(text: string): ForgetRequest | null {
  const t = trimEnglish(text.replace(/[’‘`´]/g, "'"));
  const m = FORGET_EN.exec(t);
  if (!m) return null;
  const forgetVerb = m[1] !== undefined;
  const object = m[3]
    .replace(
      /\b(?:from (?:your |the )?(?:memory|memories|records?|database|profile)|please|for me|right now|permanently|completely|forever|as well|too|for good|entirely)\b/gi,
      '',
    )
    .replace(/\s+/g, ' ')
    .replace(/^about\s+/i, '')
    .trim();
  if (!object || DISMISSAL.test(object)) return null;
  if (!forgetVerb && !MEMORY_WORDS.test(object) && !/^(?:my|what i)\b/i.test(object)) return null;

  // "everything (you know) about me", "all my data", "me"
  const core = object
    .replace(
      /(?<!\s)(?:\s*(?:that )?you (?:know|have|remember|learned|stored|saved|have (?:learned|stored|saved)))?\s*(?:about|on|of|regarding) (?:me|myself|us)$/i,
      '',
    )
    .trim();
  if (ENGLISH_ALL.test(core) || ENGLISH_ALL.test(object)) return request(true, [], []);

  const focus = object
    .replace(
      /^(?:everything|anything|all|what(?:ever)? you (?:know|remember|have)|what i (?:said|told you|mentioned|shared|wrote)|(?:the )?(?:stuff|things?|info|information|details|facts?))(?: (?:you know|that you know|you have|you remember))?\s*(?:about|on|regarding|of|concerning)?\s*/i,
      '',
    )
    .trim();
  // "that I like sushi" / "I like sushi": name what the fact is about; "my address" / "where I live": name the slot.
  const clause = /^(?:(?:the fact )?that\s+)?((?:i|i'm|i am)\b.+)$|^(?:the fact )?that\s+(\S.*|[^\S\n\r\u2028\u2029])$/i.exec(focus);
  const terms = clause ? termsOf(clause[1] ?? clause[2]) : [];
  const slots = terms.length ? [] : namedIn(EN_SLOTS, focus);
  for (const word of focus.toLowerCase().match(/[a-z]+/g) ?? []) {
    const entity = EN_ENTITIES[word] ?? EN_ENTITIES[word.replace(/s$/, '')];
    if (entity && !clause) terms.push(...entity);
  }
  // Anything else the user calls theirs ("forget about my ex", "remove my phone number"), but not a document ("delete my essay").
  if (!slots.length && !terms.length && (forgetVerb || (/^my\b/i.test(focus) && !DOCUMENT_WORDS.test(focus)))) {
    terms.push(...contentWords(focus));
  }
  return request(false, slots, terms);
}

// =============================================================================================
// Chinese

const ZH_VERB = '(?:忘记|忘掉|忘了|删除|删掉|删去|删了|删|清除|清空|抹去|抹掉|移除|去掉)';
const ZH_POLITE = '(?:请你?|麻烦你?|你能不能|你可以|你能|能不能|可以|帮我|求你)*';
const ZH_BA = new RegExp(
  `^${ZH_POLITE}(?:就)?把(.+?)(?:都|全部|全都|统统|通通)?(?:给)?${ZH_VERB}(?:掉)?(?:吧|了|好吗|好不好|可以吗|行吗)*$`,
  'ud',
);
const ZH_BA_YOU = new RegExp(`^你(?:就)?把(.+?)(?:都|全部|全都|统统|通通)?(?:给)?${ZH_VERB}(?:掉)?了?吧$`, 'ud');
const ZH_VERB_FIRST = new RegExp(
  `^${ZH_POLITE}(?:${ZH_VERB}|不要记住|别记住|不要记得|别记得|不用记住|别再记着|不要再记着|不要再记住|别再记住)(?:掉|了)?(.+?)(?:吧|好吗|好不好|可以吗|行吗)?$`,
  'ud',
);
const ZH_POLITE_START =
  /^(?:请|把|麻烦|你能不能|你可以|你能|能不能|可以|帮我|求你|忘|删|清|抹|移除|去掉|不要记|别记|不用记|别再记|不要再记)/u;

const ZH_SLOTS = NAMED_BY.zh;
const ZH_ENTITIES =
  /外甥女|男朋友|女朋友|未婚夫|未婚妻|妈妈|母亲|爸爸|父亲|父母|姐姐|妹妹|哥哥|弟弟|老婆|妻子|太太|老公|丈夫|儿子|女儿|孩子|爷爷|奶奶|外公|外婆|姥姥|姥爷|叔叔|阿姨|舅舅|姑姑|猫|狗|兔子|仓鼠|鹦鹉|金鱼|乌龟/gu;
/** What is left after the words that only say "everything about me" are removed: nothing means forget all. */
const CHINESE_ALL_WORDS =
  /所有的?|全部的?|一切|关于|有关|你(?:知道|记住|记得|存|保存|记下)的|我的?|的|个人|信息|资料|数据|记忆|东西|事情|事|内容|都|全都|统统|吧/gu;

function trimChinese(text: string): string {
  return text
    .replace(/(?<![。！？!?.\s])[。！？!?.\s]+$/u, '')
    .replace(/^(?:嗯|哦|好吧|好|那|那么|对了)[，,\s]*/u, '')
    .trim();
}

function detectChinese(text: string): ForgetRequest | null {
  const t = trimChinese(text);
  if (!ZH_POLITE_START.test(t) && !/^你(?:就)?把/u.test(t)) return null;
  const m = ZH_BA.exec(t) ?? ZH_BA_YOU.exec(t) ?? ZH_VERB_FIRST.exec(t);
  if (!m) return null;
  const object = m[1]
    .replace(/^(?:掉|了)/u, '')
    .replace(/(?:都|全部|全都|统统|通通)$/u, '')
    .replace(/^关于/u, '')
    .trim();
  if (!object || /^(?:它|这个|那个|这|那|吧)$/u.test(object)) return null;
  if (object.replace(CHINESE_ALL_WORDS, '') === '') return request(true, [], []);

  // "我喜欢爵士乐这件事", "我住在成都这件事": name what the fact is about (not "这件事", "this matter"),
  // as in English; "我的地址", "我住哪儿": name the kind.
  const said = object.replace(/(?:的)?(?:这件事|那件事|这事|那事|事情)$/u, '');
  const clause = /^我(?!的)/u.test(object) && extractFactCandidates(said, new Date(0)).length > 0 ? termsOf(said) : [];
  const slots = clause.length ? [] : namedIn(ZH_SLOTS, object);
  const terms = [...(object.match(ZH_ENTITIES) ?? []), ...clause];
  if (!slots.length && !terms.length) {
    const rest = object
      .replace(/^(?:关于)?我的?|^我(?:说过|告诉过你|提到过?)的?(?:关于)?/u, '')
      .replace(/(?:的)?(?:事情|事|信息|东西|那件事|这件事)$/u, '');
    if (rest) terms.push(rest);
  }
  return request(false, slots, terms);
}
