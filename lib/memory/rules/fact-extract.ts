/**
 * Offline fact extraction: the user's message → self-disclosure fact candidates, English and Chinese.
 *
 * Pipeline per message: sentences → clauses → (drop questions / requests / chatter) → time phrases
 * (validFrom, future) → change-negation ("no longer", "anymore", 不再…了) → slot patterns, first match
 * wins, in a fixed order from the most specific (name, date, diet) to the vaguest (like, then a plain
 * 'statement'). Everything is pure: the only clock is the `now` argument, and dates are UTC.
 */
import { contentFeatures } from '@/lib/llm/text-features';
import { HAN, isChinese, type FactCandidate, type FactSlot } from './fact-types';

type Found = { slot: FactSlot; value: string; negated?: boolean };
type TimeInfo = { rest: string; validFrom?: string; future: boolean };

export function extractFactCandidates(text: string, now: Date): FactCandidate[] {
  const out: FactCandidate[] = [];
  for (const sentence of splitSentences(text)) {
    for (const clause of statementClauses(sentence)) {
      for (const candidate of extractClause(clause, now)) {
        // The same fact twice in one message (a clause and its restatement): keep the later wording.
        const same = out.findIndex((c) => c.slot === candidate.slot && c.value === candidate.value && !c.negated === !candidate.negated);
        if (same >= 0) out.splice(same, 1);
        out.push(candidate);
      }
    }
  }
  return out;
}

// =============================================================================================
// Sentences and clauses

type Sentence = { text: string; question: boolean };

/** Split on sentence punctuation; "." only before a space or the end, so "St. Mary's" and "3.5" survive. */
function splitSentences(text: string): Sentence[] {
  const guarded = text
    .replace(/\b(Dr|Mr|Mrs|Ms|St|Prof|Jr|Sr|vs|etc|approx|e\.g|i\.e)\./gi, (m) => m.replace(/\./g, '\u0001'))
    .replace(/(\d)[.:](\d)/g, (m) => m.replace(/[.:]/, (p) => (p === '.' ? '\u0001' : '\u0002')));
  const pieces = guarded.match(/[^.!?…。！？；;:：\n]+(?:[.!?…。！？；;:：\n]+|$)/g) ?? [];
  return pieces
    .map((piece) => {
      const restored = piece.replace(/\u0001/g, '.').replace(/\u0002/g, ':');
      return { text: restored.replace(/[.!?…。！？；;:：\n\s]+$/u, '').trim(), question: /[?？]/.test(restored) };
    })
    .filter((s) => s.text.length > 0);
}

const EN_FIRST_PERSON = "(?:i|i'm|i've|i'd|i'll|im|my|we|we're|we've|our|me and)";
const EN_CONNECTOR = '(?:and|but|so|because|although|though|plus|yet|and also|and now|but now|so now|and then)';
const EN_IMPLICIT_VERB =
  '(?:work|works|live|lives|love|like|enjoy|hate|have|own|moved|study|teach|play|speak|prefer|am|plan|want|started|got|adopted|just moved|recently moved)';
const EN_SPLIT = new RegExp(
  `\\s*[,;]?\\s+${EN_CONNECTOR}\\s+(?=${EN_FIRST_PERSON}\\b)|\\s*,\\s*(?=(?:${EN_CONNECTOR}\\s+)?(?:now\\s+)?${EN_FIRST_PERSON}\\b)|\\s*,?\\s+and\\s+(?=${EN_IMPLICIT_VERB}\\b)`,
  'i',
);
const ZH_CONNECTOR = '(?:但是|但|不过|可是|而且|并且|所以|因此|因为|另外|还有|同时|然后)';
const ZH_SPLIT = new RegExp(
  `[，,、]?\\s*${ZH_CONNECTOR}(?=我)|[，,]\\s*(?=我|现在|目前|以前|${ZH_CONNECTOR}|住|在|有|喜欢|爱|讨厌|今年|来自|养|对|做|当|搬|打算|计划|准备)`,
  'u',
);

/** The clauses of a sentence that may state a fact; a question keeps only a statement before its tag ("I'm from Berlin, what about you?"). */
function statementClauses(sentence: Sentence): string[] {
  const clauses = splitClauses(sentence.text);
  if (!sentence.question) return clauses;
  const head = clauses.slice(0, -1);
  if (clauses.length < 2 || head.some((c) => INTERROGATIVE_WORD.test(c) || isQuestionClause(c))) {
    // One more chance: "I live in Berlin, do you know it?" is split only at its comma.
    const comma = sentence.text.lastIndexOf(',') >= 0 ? sentence.text.lastIndexOf(',') : sentence.text.lastIndexOf('，');
    if (comma <= 0) return [];
    const before = sentence.text.slice(0, comma);
    return INTERROGATIVE_WORD.test(before) || isQuestionClause(before) ? [] : splitClauses(before);
  }
  return head;
}

function splitClauses(sentence: string): string[] {
  const zh = isChinese(sentence);
  const parts = sentence.split(zh ? ZH_SPLIT : EN_SPLIT);
  const out: string[] = [];
  for (const [index, part] of parts.entries()) {
    let clause = stripLead(part.trim());
    if (!clause) continue;
    // "I live in Berlin and work at Google": the second clause borrows the subject.
    if (index > 0 && zh && !/^我/.test(clause) && /^我/.test(stripLead(parts[0].trim()))) clause = `我${clause}`;
    if (index > 0 && !zh && new RegExp(`^${EN_IMPLICIT_VERB}\\b`, 'i').test(clause)) clause = `I ${clause}`;
    // "My wife and I moved to Lisbon" is one clause: the split left "My wife" without a predicate.
    const previous = out[out.length - 1];
    if (!zh && previous && /^me$/i.test(previous) && /^(?:my|our)\b/i.test(clause)) {
      out[out.length - 1] = `${previous} and ${clause}`;
      continue;
    }
    if (!zh && previous && /^(?:[Mm]y|[Oo]ur) [\w-]+(?: \p{Lu}[\p{L}'-]*)?$/u.test(previous) && /^i\b/i.test(clause)) {
      out[out.length - 1] = `${previous} and ${clause}`;
      continue;
    }
    out.push(clause);
  }
  return out;
}

const EN_LEAD =
  /^(?:(?:and also|and|but|so|because|although|though|plus|yet|also|now|then|btw|by the way|anyway|anyways|oh|ah|well|actually|ok|okay|hi|hello|hey|yes|yeah|yep|no|nope|sure|fun fact|fyi|for the record|just so you know|just fyi|as you know|as i said|as i mentioned|like i said|please remember that|please remember|remember that|remember|please note that|please note|note that|keep in mind that|keep in mind|honestly|to be honest|tbh|in fact|lol|haha|hmm|um|uh|oh and|oh by the way|guess what|update)\b[\s,:;!-]*)+/i;
const ZH_LEAD =
  /^(?:(?:请你记住|请记住|请记得|你要记住|记住|记一下|顺便说一下|顺便说|顺便提一下|顺便|对了|其实|另外|还有|告诉你|跟你说|说一下|补充一下|是的|好的|没错|不过|但是|但|可是|而且|并且|所以|因此|因为|然后|同时|总之|话说|嗯|哦|噢|啊|哈哈|嘿|嗨|你好|您好|哈喽)[，,。!！:：\s]*)+/u;

const EDGE_PUNCTUATION = /^[\s,，、"'“”‘’()（）-]+|[\s,，、"'“”‘’()（）.!?。！？]+$/gu;

/** "Please remember that I'm vegan" / "Don't forget that my birthday is May 3": the fact is what follows. */
const REMEMBER_LEAD =
  /^(?:(?:please|pls|can you|could you|would you|i want you to|i'd like you to|i would like you to|i need you to|just)\s+)*(?:remember|note|keep in mind|make a note|take note|don['’]?t forget|do not forget|never forget)(?:\s+(?:that|this))?\s*[,:]?\s+(?=\S)|^(?:你要|请你?)?(?:记住|记得|别忘了|不要忘了|不要忘记|别忘记)(?:一下)?[，,:：]?/iu;

function stripLead(clause: string): string {
  const trimmed = clause.replace(EDGE_PUNCTUATION, '').replace(REMEMBER_LEAD, '');
  return trimmed.replace(EN_LEAD, '').replace(EDGE_PUNCTUATION, '').replace(ZH_LEAD, '').trim();
}


// =============================================================================================
// Questions, requests and chatter: never facts

const INTERROGATIVE_WORD = /\b(?:what|who|whom|whose|where|when|why|how|which)\b|什么|哪|谁|怎么|怎样|为什么|为何|多少|啥/i;
const EN_QUESTION_START =
  /^(?:what|what's|whats|who|who's|whom|whose|where|where's|when|why|how|how's|which|do|does|did|is|are|am|was|were|can|could|would|will|shall|should|have|has|any idea|guess what|remind me)\b/i;
const ZH_QUESTION = /[吗嘛么]$|什么|哪|谁|怎么|怎样|为什么|为何|多少|几[个岁点号月天年次位]|是不是|有没有|对不对|能不能|会不会|要不要|好不好|可不可以|记不记得|知不知道|还记得|如何|啥/u;

function isQuestionClause(clause: string): boolean {
  return isChinese(clause) ? ZH_QUESTION.test(clause) : EN_QUESTION_START.test(expandEnglish(clause));
}

const EN_REQUEST =
  /^(?:please|pls|plz|kindly|help|recommend|suggest|tell|give|show|find|write|explain|list|make|create|translate|summari[sz]e|describe|remind|let's|let|search|look up|check|calculate|compute|generate|draft|compose|define|compare|convert|fix|rewrite|edit|proofread|teach|book|order|send|email|imagine|pretend|act as|forget|delete|remove|erase|wipe|clear|never mind|nevermind|stop|continue|go on|keep going|try|say|repeat|answer|reply|respond|pick|choose|organi[sz]e|schedule|set|add|update|change|sing|draw|read|save|store|record|memori[sz]e|do not)\b|^i (?:want|need|would like) you\b|^i (?:want|would like|need) to (?:know|ask|see|find out|learn more|understand|check|confirm|talk|chat)\b|^i need (?:help|some help|advice|some advice|a|an|some|more|recommendations|ideas|suggestions|information|info)\b|^i am (?:looking for|searching for|wondering|curious)\b|^i (?:was wondering|wonder|have a question|have another question|got a question)\b/i;
const ZH_REQUEST =
  /^(?:我(?:需要|要|想要)(?:一|个|点|些|几)|请|麻烦|帮我|帮忙|帮个忙|给我|告诉我|推荐|介绍|说说|讲讲|讲个|写|翻译|解释|总结|列出|列举|计算|查|搜|找|你能|你可以|你会|你帮|你给|你把|你来|能不能|能否|可不可以|可以|让我们|我们来|把|别|不要|忘|删|清除|清空|提醒我|我想知道|我想问|我想请你|我需要你|我要你|我想让你|我希望你|我想了解|帮帮我)/u;

function isRequest(clause: string): boolean {
  return isChinese(clause) ? ZH_REQUEST.test(clause) : EN_REQUEST.test(expandEnglish(clause));
}

// =============================================================================================
// Time phrases → validFrom / future, removed from the clause so values stay clean ("Lisbon", not "Lisbon since 2019")

const DAY_MS = 86_400_000;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const WEEKDAY = `(${WEEKDAYS.join('|')})`;
const EN_NUM = '(a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|couple of|several|\\d+)';
const EN_UNIT = '(day|week|month|year)s?';
const EN_NUMBERS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  'a few': 3, 'a couple of': 2, 'couple of': 2, several: 3,
};
type Unit = 'day' | 'week' | 'month' | 'year';
type Period = 'week' | 'month' | 'year';

const isoDate = (date: Date) => date.toISOString().slice(0, 10);
const utcDate = (y: number, m: number, d = 1) => new Date(Date.UTC(y, m, d));
const today = (now: Date) => utcDate(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
const monthIndex = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase());
const enNumber = (word: string) => EN_NUMBERS[word.toLowerCase()] ?? Number(word);

/** Monday of the week `weeksBack` weeks before the current one (ISO weeks start on Monday). */
function weekStart(now: Date, weeksBack: number): Date {
  const day = today(now);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - (sinceMonday + 7 * weeksBack) * DAY_MS);
}

function shiftBack(now: Date, amount: number, unit: Unit): Date {
  const day = today(now);
  if (unit === 'day') return new Date(day.getTime() - amount * DAY_MS);
  if (unit === 'week') return new Date(day.getTime() - amount * 7 * DAY_MS);
  const months = Math.round(unit === 'year' ? amount * 12 : amount);
  const target = utcDate(day.getUTCFullYear(), day.getUTCMonth() - months);
  // Clamp to the month's last day: one month before 31 March is 28/29 February, not 3 March.
  const lastDay = utcDate(target.getUTCFullYear(), target.getUTCMonth() + 1, 0).getUTCDate();
  return utcDate(target.getUTCFullYear(), target.getUTCMonth(), Math.min(day.getUTCDate(), lastDay));
}

/** The most recent start of a named month that is not in the future ("since March"). */
function lastMonthStart(now: Date, month: number): Date {
  const year = now.getUTCFullYear();
  return utcDate(month <= now.getUTCMonth() ? year : year - 1, month);
}

function startOfPeriod(now: Date, unit: Period, back: number): Date {
  if (unit === 'week') return weekStart(now, back);
  if (unit === 'month') return utcDate(now.getUTCFullYear(), now.getUTCMonth() - back);
  return utcDate(now.getUTCFullYear() - back, 0);
}

type TimeRule = {
  pattern: RegExp;
  /** A date when the phrase says when something started; `future` when it points ahead. */
  resolve: (m: RegExpExecArray, now: Date, tense: { past: boolean; perfect: boolean }) => { from?: Date; future?: boolean };
};

const yearDate = (now: Date, year: number, month = 0) =>
  year > now.getUTCFullYear() ? { future: true } : { from: utcDate(year, month) };

const EN_TIME_RULES: TimeRule[] = [
  {
    pattern: new RegExp(`\\b(?:ever )?since (?:early |late |mid-?)?(?:${MONTH},? )?((?:19|20)\\d{2})\\b`, 'gi'),
    resolve: (m, now) => yearDate(now, Number(m[2]), m[1] ? monthIndex(m[1]) : 0),
  },
  { pattern: new RegExp(`\\bsince ${MONTH}\\b`, 'gi'), resolve: (m, now) => ({ from: lastMonthStart(now, monthIndex(m[1])) }) },
  {
    pattern: /\bsince (last|this) (week|month|year)\b/gi,
    resolve: (m, now) => ({ from: startOfPeriod(now, m[2].toLowerCase() as Period, m[1].toLowerCase() === 'last' ? 1 : 0) }),
  },
  { pattern: /\bsince yesterday\b/gi, resolve: (_m, now) => ({ from: shiftBack(now, 1, 'day') }) },
  { pattern: new RegExp(`\\bsince ${EN_NUM} ${EN_UNIT} ago\\b`, 'gi'), resolve: (m, now) => ({ from: shiftBack(now, enNumber(m[1]), m[2].toLowerCase() as Unit) }) },
  {
    pattern: new RegExp(`\\b(?:back )?in (?:(?:early|late|mid-?) )?(?:${MONTH},? )?((?:19|20)\\d{2})\\b`, 'gi'),
    resolve: (m, now) => yearDate(now, Number(m[2]), m[1] ? monthIndex(m[1]) : 0),
  },
  {
    pattern: new RegExp(`\\b(?:on |by )?(?:the )?(?:${MONTH} (\\d{1,2})(?:st|nd|rd|th)?|(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH})\\b`, 'gi'),
    resolve: (m, now, tense) => {
      const month = monthIndex(m[1] ?? m[4]);
      const day = Number(m[2] ?? m[3]);
      const thisYear = utcDate(now.getUTCFullYear(), month, day);
      if (tense.past) return { from: thisYear > today(now) ? utcDate(now.getUTCFullYear() - 1, month, day) : thisYear };
      return { future: thisYear >= today(now) };
    },
  },
  { pattern: new RegExp(`\\blast ${MONTH}\\b`, 'gi'), resolve: (m, now) => ({ from: lastMonthStart(now, monthIndex(m[1])) }) },
  { pattern: new RegExp(`\\bnext ${MONTH}\\b`, 'gi'), resolve: () => ({ future: true }) },
  {
    pattern: new RegExp(`\\bin ${MONTH}\\b`, 'gi'),
    resolve: (m, now, tense) => (tense.past ? { from: lastMonthStart(now, monthIndex(m[1])) } : { future: true }),
  },
  { pattern: /\blast (week|month|year)\b/gi, resolve: (m, now) => ({ from: startOfPeriod(now, m[1].toLowerCase() as Period, 1) }) },
  { pattern: /\blast (?:summer|winter|spring|fall|autumn)\b/gi, resolve: () => ({}) },
  { pattern: /\blast weekend\b/gi, resolve: (_m, now) => ({ from: new Date(weekStart(now, 1).getTime() + 5 * DAY_MS) }) },
  {
    pattern: new RegExp(`\\blast ${WEEKDAY}\\b`, 'gi'),
    resolve: (m, now) => {
      const target = (WEEKDAYS.indexOf(m[1].toLowerCase()) + 1) % 7;
      const back = ((today(now).getUTCDay() - target + 7) % 7) || 7;
      return { from: shiftBack(now, back, 'day') };
    },
  },
  { pattern: /\b(?:the day before yesterday)\b/gi, resolve: (_m, now) => ({ from: shiftBack(now, 2, 'day') }) },
  { pattern: /\b(?:yesterday|last night)\b/gi, resolve: (_m, now) => ({ from: shiftBack(now, 1, 'day') }) },
  { pattern: /\b(?:earlier today|today|this morning|this afternoon)\b/gi, resolve: (_m, now, tense) => (tense.past ? { from: today(now) } : {}) },
  { pattern: /\b(?:these days|nowadays|currently|lately|at the moment|at present)\b/gi, resolve: () => ({}) },
  { pattern: new RegExp(`\\b${EN_NUM} ${EN_UNIT} ago\\b`, 'gi'), resolve: (m, now) => ({ from: shiftBack(now, enNumber(m[1]), m[2].toLowerCase() as Unit) }) },
  {
    pattern: new RegExp(`\\b(?:for|over) (?:the (?:past|last) )?(?:over |about |almost |nearly |around )?${EN_NUM} ${EN_UNIT}(?: now)?\\b`, 'gi'),
    resolve: (m, now, tense) => (tense.perfect ? { from: shiftBack(now, enNumber(m[1]), m[2].toLowerCase() as Unit) } : {}),
  },
  {
    pattern: /\bthis (week|month|year)\b/gi,
    resolve: (m, now, tense) => (tense.past ? { from: startOfPeriod(now, m[1].toLowerCase() as Period, 0) } : { future: true }),
  },
  {
    pattern: new RegExp(
      `\\b(?:tomorrow|tonight|next (?:week|month|year|weekend|summer|winter|spring|fall|autumn|time|${WEEKDAYS.join('|')})|this (?:weekend|summer|winter|spring|fall|autumn|evening|coming \\w+)|(?:later )?this (?:week|month|year)|in ${EN_NUM} ${EN_UNIT}(?: time)?|soon|someday|some day|one day|later (?:this|today|on)|(?:on|by) ${WEEKDAY}|by (?:tomorrow|tonight|the end of (?:the |this )?(?:day|week|month|year))|over the (?:weekend|summer|holidays?)|at the end of (?:the |this )?(?:week|month|year)|in the (?:near )?future|eventually|upcoming)\\b`,
      'gi',
    ),
    resolve: () => ({ future: true }),
  },
];

const EN_PAST = /\b(?:[a-z]+ed|was|were|had|did|got|went|became|began|moved|adopted|bought|made|met|came|left|quit|gave|took|found|grew|born|ate|lost|sold|won|wrote|ran|built|chose|drove|flew|heard|kept|knew|paid|put|saw|sent|spent|taught|told)\b/i;
const EN_PERFECT = /\b(?:have|has|had|been)\b/i;

function parseTimeEn(clause: string, now: Date): TimeInfo {
  const tense = { past: EN_PAST.test(clause), perfect: EN_PERFECT.test(clause) };
  return applyTimeRules(clause, now, EN_TIME_RULES, tense);
}

function applyTimeRules(clause: string, now: Date, rules: TimeRule[], tense: { past: boolean; perfect: boolean }): TimeInfo {
  let rest = clause;
  let from: Date | undefined;
  let future = false;
  for (const rule of rules) {
    rest = rest.replace(rule.pattern, (...args) => {
      // replace() passes (match, ...groups, offset, whole): the first part reads like an exec() result.
      const m = args.slice(0, -2) as unknown as RegExpExecArray;
      const found = rule.resolve(m, now, tense);
      from ??= found.from;
      future ||= found.future === true;
      return ' ';
    });
  }
  rest = rest.replace(/\s+/g, ' ').replace(/\s+([,，])/g, '$1').replace(/^[\s,，]+|[\s,，]+$/g, '');
  return { rest, validFrom: from && !future ? isoDate(from) : undefined, future };
}

const CN_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** "三" → 3, "十二" → 12, "二十" → 20, "二〇一九" → 2019, "几" → 3 (a few), "半" → 0.5. */
function cnNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (text === '几') return 3;
  if (text === '半') return 0.5;
  if (/^[零〇一二两三四五六七八九]{2,4}$/.test(text)) return Number([...text].map((c) => CN_DIGITS[c]).join(''));
  const tens = /^([一二两三四五六七八九])?十([一二三四五六七八九])?$/.exec(text);
  if (tens) return (tens[1] ? CN_DIGITS[tens[1]] : 1) * 10 + (tens[2] ? CN_DIGITS[tens[2]] : 0);
  return text.length === 1 ? CN_DIGITS[text] : undefined;
}

const ZH_NUM = '(\\d+|[零〇一二两三四五六七八九十几半]+)';
const ZH_UNITS: Record<string, Unit> = { 天: 'day', 日: 'day', 周: 'week', 星期: 'week', 礼拜: 'week', 月: 'month', 年: 'year' };
const ZH_UNIT = '(天|日|周|星期|礼拜|月|年)';
const zhShift = (m: string, unit: string, now: Date) => {
  const amount = cnNumber(m);
  return amount === undefined ? {} : { from: shiftBack(now, amount, ZH_UNITS[unit]) };
};
const ZH_WEEKDAY: Record<string, number> = { 一: 0, 二: 1, 三: 2, 四: 3, 五: 4, 六: 5, 日: 6, 天: 6 };

const ZH_TIME_RULES: TimeRule[] = [
  {
    pattern: /(?:从|自从|自|打)?((?:19|20)\d{2}|[零〇一二三四五六七八九]{4})年(?:(\d{1,2}|十[一二]?|[一二三四五六七八九])月份?)?(?:初|底|中)?(?:起|开始|以来|至今|到现在|就)?/gu,
    resolve: (m, now) => yearDate(now, cnNumber(m[1]) ?? 0, m[2] ? (cnNumber(m[2]) ?? 1) - 1 : 0),
  },
  {
    pattern: /(\d{1,2}|十[一二]?|[一二三四五六七八九])月(\d{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])[日号]/gu,
    resolve: (m, now, tense) => {
      const date = utcDate(now.getUTCFullYear(), (cnNumber(m[1]) ?? 1) - 1, cnNumber(m[2]) ?? 1);
      return tense.past ? { from: date } : { future: date >= today(now) };
    },
  },
  { pattern: new RegExp(`${ZH_NUM}个?${ZH_UNIT}(?:后|以后|之后)`, 'gu'), resolve: () => ({ future: true }) },
  { pattern: new RegExp(`${ZH_NUM}个?${ZH_UNIT}(?:前|以前|之前)`, 'gu'), resolve: (m, now) => zhShift(m[1], m[2], now) },
  { pattern: new RegExp(`(?:已经)?${ZH_NUM}多?个?${ZH_UNIT}多?(?:了|来)`, 'gu'), resolve: (m, now) => zhShift(m[1], m[2], now) },
  {
    pattern: /上个?(?:周|星期|礼拜)([一二三四五六日天])?/gu,
    resolve: (m, now) => ({ from: new Date(weekStart(now, 1).getTime() + (m[1] ? ZH_WEEKDAY[m[1]] : 0) * DAY_MS) }),
  },
  { pattern: /上个?月/gu, resolve: (_m, now) => ({ from: startOfPeriod(now, 'month', 1) }) },
  { pattern: /去年/gu, resolve: (_m, now) => ({ from: startOfPeriod(now, 'year', 1) }) },
  { pattern: /前年/gu, resolve: (_m, now) => ({ from: startOfPeriod(now, 'year', 2) }) },
  { pattern: /前天/gu, resolve: (_m, now) => ({ from: shiftBack(now, 2, 'day') }) },
  { pattern: /昨天|昨晚|昨日/gu, resolve: (_m, now) => ({ from: shiftBack(now, 1, 'day') }) },
  {
    pattern: /明天|后天|大后天|明早|明晚|今晚|下个?(?:周|星期|礼拜)(?:[一二三四五六日天末])?|下个?月|明年|后年|下个?周末|这个?周末|周末|过(?:几|两|一|些)天|将来|以后|未来|月底|年底|暑假|寒假|国庆|春节|五一|下半年|年后|不久|很快|马上|下次|改天|到时候/gu,
    resolve: () => ({ future: true }),
  },
  { pattern: /今天|今早|今年|这个月|本月|这周|本周/gu, resolve: (_m, now, tense) => (tense.past ? { from: today(now) } : {}) },
  { pattern: /现在|目前|如今|最近|这些天|这几天|近来|这段时间|近期|刚刚|刚才/gu, resolve: () => ({}) },
];

function parseTimeZh(clause: string, now: Date): TimeInfo {
  const tense = { past: /了|过/.test(clause), perfect: /了/.test(clause) };
  const info = applyTimeRules(clause, now, ZH_TIME_RULES, tense);
  return { ...info, rest: info.rest.replace(/\s+/g, '') };
}

// =============================================================================================
// Clause → candidates

/** A clause as the slot patterns read it: contractions spelled out, time phrases, lead-in adverbs and a trailing "now" out. */
export function readClause(clause: string): string {
  const anyDay = new Date(0); // only the wording is wanted here, not the dates
  if (isChinese(clause)) return stripZhAdverbs(parseTimeZh(clause, anyDay).rest);
  return cleanEn(stripSubjectAdverbs(parseTimeEn(expandEnglish(clause), anyDay).rest));
}

function extractClause(clause: string, now: Date): FactCandidate[] {
  if (!clause || isQuestionClause(clause) || isRequest(clause)) return [];
  const zh = isChinese(clause);
  const time = zh ? parseTimeZh(clause, now) : parseTimeEn(expandEnglish(clause), now);
  const found = zh ? matchZh(clause, time) : matchEn(clause, time);
  return found
    .filter((f) => f.value.length > 0 || f.negated)
    .map((f) => ({
      slot: f.slot,
      text: clause,
      value: f.value,
      ...(f.negated ? { negated: true } : {}),
      // A date fact carries its date in the value; validFrom is for facts that started at some point.
      ...(time.validFrom && f.slot !== 'date' ? { validFrom: time.validFrom } : {}),
    }));
}

// =============================================================================================
// English

/** Contractions spelled out so one pattern covers "I'm" / "I am" / "im", "don't" / "do not". */
function expandEnglish(text: string): string {
  return text
    .replace(/[’‘`´]/g, "'")
    .replace(/\bi'm\b|\bim\b/gi, 'i am')
    .replace(/\bi've\b|\bive\b/gi, 'i have')
    .replace(/\bi'll\b/gi, 'i will')
    .replace(/\bi'd\b/gi, 'i would')
    .replace(/\bwe're\b/gi, 'we are')
    .replace(/\bwe've\b/gi, 'we have')
    .replace(/\b(do|does|did|is|are|was|were|have|has|had|would|could|should)n'?t\b/gi, '$1 not')
    .replace(/\bcan'?t\b|\bcannot\b/gi, 'can not')
    .replace(/\bwon'?t\b/gi, 'will not')
    .replace(/\bain'?t\b/gi, 'am not')
    .replace(/\b(name|birthday|job|address|hometown|diet|plan|goal|dream)'s\b/gi, '$1 is')
    .replace(/\b(have|has) got\b/gi, '$1')
    .replace(/\bgonna\b/gi, 'going to')
    .replace(/\bwanna\b/gi, 'want to')
    .replace(/\s+/g, ' ')
    .trim();
}

const EN_ADVERBS =
  '(?:really|actually|also|still|now|currently|recently|just|finally|already|totally|absolutely|truly|honestly|definitely|kind of|kinda|sort of|mostly|usually|always|originally|basically|officially|pretty much|even|too|then|literally|genuinely|only|mainly|generally|happily|proudly|technically|secretly|newly|personally|obviously|seriously|certainly|both|all|eventually|sometimes|often|very|so)';
const SUBJECT_ADVERBS = new RegExp(`^(i|we|i am|we are|i have|we have|i was|i will|i would)\\s+(?:${EN_ADVERBS}\\s+)+`, 'i');

function stripSubjectAdverbs(clause: string): string {
  return clause.replace(SUBJECT_ADVERBS, '$1 ');
}

/** Endings that never belong to a value: "Lisbon now", "sushi anymore", "peanuts too". */
const EN_TRAILING =
  /(?:\s+(?:now|again|anymore|any more|any longer|too|as well|also|though|lol|haha|a lot|so much|very much|really|at all|right now|for now|already|still|for sure|honestly|actually|btw|by the way|in general|generally|mostly|either|recently|full[- ]time|part[- ]time|permanently|for good|myself|later|someday|one day|eventually))+$/i;

function cleanEn(value: string): string {
  let v = value.replace(/["“”]/g, '').replace(/[\s.!?,;:]+$/g, '').trim();
  v = v.replace(EN_TRAILING, '').trim();
  v = v.replace(/^(?:a|an|the|some)\s+/i, '');
  return v.replace(/\s+/g, ' ').toLowerCase().slice(0, 80);
}

/** Cut a value at the first clause-like continuation ("Lisbon with my wife", "sushi because …"). */
function cutEn(value: string, commas: 'cut' | 'keep' | 'keep-before-capital' = 'cut'): string {
  const continuation = value.search(
    /;|\s[-–]\s|\s+(?:because|since|so that|which|who|where|when|but|although|though|except|unless|if|with my|with our|for (?:work|my|our|the|a|an|a living|\d)|as an?|to be closer|and i|and we|and my)\b/i,
  );
  // "Berlin, Germany" keeps its comma; "Berlin, with my wife" does not. (Case-sensitive on purpose.)
  const comma = commas === 'keep' ? -1 : value.search(commas === 'cut' ? /,/ : /,(?!\s*\p{Lu})/u);
  const cuts = [continuation, comma].filter((at) => at >= 0);
  return cuts.length ? value.slice(0, Math.min(...cuts)) : value;
}

/** "peanuts, shellfish and sesame" → three values. */
function splitListEn(value: string): string[] {
  return value
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&|as well as|plus)\s+/i)
    .map((v) => cleanEn(v.replace(/^(?:then|also|plus|maybe|probably|especially|mostly)\s+/i, '')))
    .filter(Boolean);
}

const PRONOUN_OBJECT = /^(?:it|this|that|these|those|you|your|yours|him|her|them|what|how|when|the way|the idea|the fact|i|we|he|she|they|myself|everything|anything|nothing|something|so|doing that|doing this)\b/i;
const MENTIONS_ASSISTANT = /\b(?:you|your|yours|u|ur|chatgpt|assistant)\b/i;

/** `s`: the clause expanded, adverbs and time phrases taken out; `raw`: the same with time phrases kept (for dates). */
type EnContext = { s: string; raw: string; future: boolean };

function matchEn(original: string, time: TimeInfo): Found[] {
  const s = stripSubjectAdverbs(time.rest);
  const raw = stripSubjectAdverbs(expandEnglish(original));
  const ctx: EnContext = { s, raw, future: time.future };
  const special = dietSpecialEn(s) ?? workEndEn(s) ?? petLossEn(s) ?? cancelledPlanEn(s) ?? cantStandEn(s) ?? movedAwayEn(s);
  if (special) return special;

  const change = EN_CHANGE.test(s);
  if (!change && !EN_NEGATION.test(s)) return positiveEn(ctx) ?? statementEn(s, false);
  // "I don't like X" is a dislike, "I'm not into X" too; "I don't like X anymore" ends a like.
  if (!change) {
    const dislike = dislikeEn(ctx);
    if (dislike) return dislike;
  }
  if (!/^(?:i|we)\b/i.test(s)) return statementEn(s, false);
  const positive = stripSubjectAdverbs(removeNegationEn(s));
  const found = positiveEn({ ...ctx, s: positive, raw: positive });
  if (found?.length) return found.map((f) => ({ ...f, negated: true }));
  return change ? statementEn(positive, true) : statementEn(s, false);
}

const EN_CHANGE = /\b(?:any ?more|any longer|no longer|used to)\b|^i (?:stopped|quit|gave up|have stopped|have quit|have given up) being\b/i;
const EN_NEGATION = /^(?:i|we)(?: \S+)? (?:not|no longer|never)\b/i;

function removeNegationEn(s: string): string {
  return s
    .replace(/\b(?:any ?more|any longer)\b/gi, '')
    .replace(/\bno longer\b/i, '')
    .replace(/\bused to be\b/i, 'am')
    .replace(/\bused to\b/i, '')
    .replace(/^i (?:stopped|quit|gave up|have stopped|have quit|have given up) being\b/i, 'i am')
    .replace(/\b(?:do|does|did) not (?:really )?/i, '')
    .replace(/\b(have|has) not got\b/i, '$1')
    .replace(/\b(am|is|are|was|were|have|has|will|would) not (?:really |exactly |actually )?/i, '$1 ')
    .replace(/\bnever\b/i, '')
    .replace(/\bnot\b/i, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const MATCHERS_EN: ((ctx: EnContext) => Found[] | null)[] = [
  nameEn,
  dateEn,
  dislikeEn,
  allergyEn,
  dietEn,
  companionEn,
  familyPetEn,
  locationEn,
  workEn,
  planEn,
  likeEn,
  introductionEn,
];

function positiveEn(ctx: EnContext): Found[] | null {
  for (const matcher of MATCHERS_EN) {
    const found = matcher(ctx);
    if (found?.length) return found;
  }
  return null;
}

const one = (slot: FactSlot, value: string, negated = false): Found[] => [{ slot, value, ...(negated ? { negated } : {}) }];

// ---- name

const NOT_A_NAME = /^(?:not|a|an|the|what|sure|later|back|anything|nothing|whatever|that|this|it|him|her|you|me|maybe|whenever|if|when|so|too|tomorrow|today|soon)$/i;

function cleanName(value: string): string | null {
  const cut = value.split(/\s*(?:[,(]|\b(?:but|and|by the way|btw|though|for short|please|from|if|instead|by|at|in|i)\b)/i)[0];
  const name = cleanEn(cut);
  if (!name || name.split(' ').length > 4 || NOT_A_NAME.test(name)) return null;
  return /^[\p{L}][\p{L}\p{M}'.\- ]*$/u.test(name) ? name : null;
}

function nameEn({ s }: EnContext): Found[] | null {
  const m =
    /^my (?:first |full |real |given |actual )?name is (.+)$/i.exec(s) ??
    /^i am (?:called|named) (.+)$/i.exec(s) ??
    /^(?:you can |you may |please |just |everyone |people |my friends |friends |they |most people |everybody )?calls? me (.+)$/i.exec(s) ??
    /^i go by (?:the name )?(.+)$/i.exec(s) ??
    /^the name is (.+)$/i.exec(s);
  if (!m) return null;
  // "My name isn't Bob" (expanded to "is not Bob") denies a name instead of giving one.
  const denied = /^not\s+/i.test(m[1]);
  const name = cleanName(m[1].replace(/^not\s+/i, ''));
  return name ? one('name', name, denied) : null;
}

const NATIONALITIES =
  /^(?:american|british|english|scottish|welsh|irish|german|french|chinese|japanese|korean|indian|italian|spanish|canadian|australian|mexican|brazilian|russian|dutch|swedish|norwegian|danish|finnish|portuguese|polish|greek|turkish|vietnamese|thai|filipino|indonesian|malaysian|singaporean|swiss|austrian|belgian|czech|hungarian|ukrainian|israeli|egyptian|nigerian|kenyan|african|european|asian|latino|latina|hispanic|christian|catholic|jewish|muslim|buddhist|hindu|atheist|agnostic|vegan|vegetarian|pescatarian|single|married|retired|fine|good|great|okay|ok|back|here|home|new|sorry|sure|not|so|very|just|really|also|still|from|in|at|on|the|a|an)$/i;

/** "I'm Anna" (a capitalised word right after "I'm") introduces a name; "I'm Anna from Berlin" / "I'm Kenji, a teacher from Osaka" say more. */
function introductionEn(ctx: EnContext): Found[] | null {
  const m = /^[Ii] am ([A-Z][\p{L}'-]+(?: [A-Z][\p{L}'-]+){0,2})(?:\s*,\s*(.+)|\s+(?:and\s+)?((?:from|an?) .+))?$/u.exec(ctx.s);
  if (!m || m[1].split(' ').some((w) => NATIONALITIES.test(w) || PROFESSIONS.has(w.toLowerCase()))) return null;
  const found = one('name', m[1].toLowerCase());
  const tail = (m[2] ?? m[3] ?? '').trim();
  const from = /^(?:(.+?)\s+)?from (.+)$/i.exec(tail);
  const role = from ? from[1] : tail;
  if (role) found.push(...(workEn({ ...ctx, s: `i am ${role}` }) ?? positiveEn({ ...ctx, s: `i am ${role}` }) ?? []));
  if (from) found.push({ slot: 'location', value: cleanEn(cutEn(from[2], 'keep-before-capital')) });
  return found;
}

// ---- dates (birthdays, anniversaries): matched on the clause before time phrases are taken out

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function parseDateEn(text: string): string | null {
  const t = text.toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ').trim();
  let m = new RegExp(`^(?:on |in )?(?:the )?${MONTH} (\\d{1,2})(?:st|nd|rd|th)?(?: (\\d{4}))?\\b`).exec(t);
  if (m) return `${m[3] ? `${m[3]}-` : ''}${pad(monthIndex(m[1]) + 1)}-${pad(Number(m[2]))}`;
  m = new RegExp(`^(?:on |in )?(?:the )?(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH}(?: (\\d{4}))?\\b`).exec(t);
  if (m) return `${m[3] ? `${m[3]}-` : ''}${pad(monthIndex(m[2]) + 1)}-${pad(Number(m[1]))}`;
  m = /^(?:on |in )?(\d{4})-(\d{2})-(\d{2})\b/.exec(t);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(?:on |in )?((?:19|20)\d{2})$/.exec(t);
  if (m) return m[1];
  m = new RegExp(`^(?:in )?${MONTH}$`).exec(t);
  if (m) return pad(monthIndex(m[1]) + 1);
  m = /^(?:on )?(\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?)$/.exec(t);
  return m ? m[1] : null;
}

const OCCASIONS: Record<string, string> = {
  birthday: 'birthday', bday: 'birthday', 'b-day': 'birthday', 'birth date': 'birthday', 'date of birth': 'birthday',
  'wedding anniversary': 'anniversary', anniversary: 'anniversary', 'name day': 'name day', 'due date': 'due date',
};
const OCCASION = '(birthday|bday|b-day|birth date|date of birth|wedding anniversary|anniversary|name day|due date)';

function dateEn({ raw }: EnContext): Found[] | null {
  let m = new RegExp(`^(?:my|our) (?:(${ENTITY_EN})(?:'s|s'|s) )?${OCCASION}(?: is| falls on| will be| was|:)?\\s*(.+)$`, 'i').exec(raw);
  if (m) {
    const occasion = OCCASIONS[m[2].toLowerCase()];
    const date = parseDateEn(m[3]);
    if (!date) return null;
    return one('date', `${m[1] ? `${ENTITIES_EN[m[1].toLowerCase()]}'s ` : ''}${occasion}:${date}`);
  }
  m = /^(.+?) is (?:my|our) (birthday|anniversary|wedding anniversary)$/i.exec(raw);
  if (m) {
    const date = parseDateEn(m[1]);
    return date ? one('date', `${OCCASIONS[m[2].toLowerCase()]}:${date}`) : null;
  }
  m = /^i was born (?:on )?(.+)$/i.exec(raw);
  if (m) {
    const date = parseDateEn(m[1]);
    return date ? one('date', `birthday:${date}`) : null;
  }
  m = /^(?:we|i) (?:got married|were married|married|met|started dating) on (.+)$/i.exec(raw);
  const date = m && parseDateEn(m[1]);
  return date ? one('date', `anniversary:${date}`) : null;
}

// ---- likes and dislikes

const LIKE_VERBS =
  '(?:love|like|adore|enjoy|prefer|dig|am into|am big into|am a (?:big |huge |massive |great |real )?fan of|am crazy about|am mad about|am obsessed with|am passionate about|am fond of|am keen on|am addicted to|am interested in|am in love with|have a soft spot for|have a thing for|have (?:loved|liked|enjoyed|adored)|have (?:grown|come|started|begun) to (?:love|like|enjoy)|have started (?:liking|loving|enjoying)|started (?:liking|loving|enjoying)|started to (?:like|love|enjoy)|have fallen in love with|fell in love with|live for|can not get enough of|can not live without)';
const DISLIKE_VERBS =
  '(?:hate|dislike|detest|loathe|despise|can not stand|can not bear|can not tolerate|am not (?:really |that |very |much of )?(?:a )?(?:big |huge |great )?fan of|am not (?:really |that )?into|am not (?:really |that |very )?keen on|am not (?:really |that |very )?fond of|am not (?:really |that |very )?interested in|do not (?:really )?(?:like|enjoy|love|care for)|really do not like|am sick of|am afraid of|am scared of|am terrified of|fear|have (?:always )?hated|have never liked|never (?:really )?liked|am not a fan of)';
const LIKE_RE = new RegExp(`^(?:i|we) ${LIKE_VERBS} (.+)$`, 'i');
const DISLIKE_RE = new RegExp(`^(?:i|we) ${DISLIKE_VERBS} (.+)$`, 'i');

function objectValues(object: string): string[] {
  if (PRONOUN_OBJECT.test(object) || MENTIONS_ASSISTANT.test(object)) return [];
  // "I prefer tea over coffee": the preference is the first thing.
  const cut = cutEn(object.replace(/^to\s+/i, ''), 'keep').split(/\s+(?:over|rather than|instead of|more than)\s+/i)[0];
  return splitListEn(cut).filter((v) => !PRONOUN_OBJECT.test(v));
}

function likeEn({ s }: EnContext): Found[] | null {
  let m = /^(?:my|our) (?:absolute |all-time |all time |personal |very )?(?:favou?rite|fave|fav)(?: ([\w\s-]+?))? (?:is|are|has to be|would be|of all time is) (.+)$/i.exec(s);
  if (m) return objectValues(m[2]).map((value) => ({ slot: 'like', value }));
  m = /^(?:my|our) least favou?rite ([\w\s-]+?) (?:is|are) (.+)$/i.exec(s);
  if (m) return objectValues(m[2]).map((value) => ({ slot: 'dislike', value }));
  m = /^(.+?) (?:is|are) (?:my|our) (?:absolute |all-time )?(?:favou?rite|fave|fav)\b/i.exec(s);
  if (m) return objectValues(m[1]).map((value) => ({ slot: 'like', value }));
  m = /^i am (?:a |an )?(?:big |huge |massive |great |real |die-hard |diehard |total |avid |passionate )?(.+?) (?:fan|lover|enthusiast|buff|nerd|geek|addict|fanatic|junkie)$/i.exec(s);
  if (m && !/^(?:not|no)\b/i.test(m[1])) return objectValues(m[1]).map((value) => ({ slot: 'like', value }));
  m = /^my (?:hobby|hobbies|passion|passions|interests?|pastimes?) (?:is|are|include|includes) (.+)$/i.exec(s);
  m ??= LIKE_RE.exec(s);
  return m ? objectValues(m[1]).map((value) => ({ slot: 'like', value })) : null;
}

function dislikeEn({ s }: EnContext): Found[] | null {
  const m = DISLIKE_RE.exec(s);
  return m ? objectValues(m[1]).map((value) => ({ slot: 'dislike', value })) : null;
}

/** "I can't stand X anymore" still dislikes X: the "anymore" must not turn it into an ended fact. */
function cantStandEn(s: string): Found[] | null {
  const m = /^i (?:really )?(?:can not stand|can not bear|can not tolerate) (.+)$/i.exec(s);
  return m ? objectValues(m[1]).map((value) => ({ slot: 'dislike', value })) : null;
}

// ---- allergies

function allergyEn({ s }: EnContext): Found[] | null {
  const list = (v: string) => splitListEn(cutEn(v, 'keep')).map((value) => ({ slot: 'allergy' as const, value }));
  let m =
    /^i am (?:(?:very|severely|highly|deathly|slightly|mildly|a bit|a little|really|super|extremely|so|quite)\s+)*(?:allergic|intolerant|hypersensitive) to (.+)$/i.exec(s) ??
    /^i (?:have|got|suffer from) (?:an? |some |severe |mild |serious |bad |terrible |food )*(?:allergy|allergies|intolerance|intolerances) to (.+)$/i.exec(s) ??
    /^my (?:food )?allerg(?:y|ies) (?:is|are|include|includes) (.+)$/i.exec(s);
  if (m) return list(m[1]);
  m = /^i (?:have developed|have|got|suffer from|developed) (?:an? |some |severe |mild |serious |bad |terrible )*(.+?) (?:allergy|allergies|intolerance)$/i.exec(s);
  if (m) return list(m[1]);
  m = /^i am (lactose|gluten|fructose|histamine|wheat|dairy) intolerant$/i.exec(s);
  if (m) return one('allergy', m[1].toLowerCase());
  if (/^i (?:am (?:a )?|have )(?:celiac|coeliac)(?: disease)?$/i.test(s)) return one('allergy', 'gluten');
  m = /^(.+?) (?:give|gives|gave) me (?:hives|a rash|an allergic reaction|allergies)$/i.exec(s);
  if (m && !PRONOUN_OBJECT.test(m[1])) return list(m[1]);
  m = /^i can not (?:eat|have|touch) (.+?) because (?:of )?(?:my |an? |i am )?allerg/i.exec(s);
  return m ? list(m[1]) : null;
}

// ---- diet

const DIET_ALT =
  'vegetarian|veggie|vegan|plant[- ]based|pescatarian|pescetarian|pescitarian|pesco-vegetarian|lacto(?:-ovo)?-vegetarian|ovo-vegetarian|flexitarian|keto|ketogenic|paleo|carnivore|omnivore|gluten[- ]free|dairy[- ]free|halal|kosher|low[- ]carb|raw vegan|fruitarian';

function dietWord(word: string): string {
  const w = word.toLowerCase().replace(/\s+/g, ' ');
  if (/vegetarian|veggie/.test(w)) return 'vegetarian';
  if (/vegan|plant[- ]based/.test(w)) return 'vegan';
  if (/pesc/.test(w)) return 'pescatarian';
  if (/keto/.test(w)) return 'keto';
  if (/gluten/.test(w)) return 'gluten-free';
  if (/dairy/.test(w)) return 'dairy-free';
  if (/low[- ]carb/.test(w)) return 'low-carb';
  return w;
}

function dietEn({ s }: EnContext): Found[] | null {
  let m = new RegExp(
    `^i am (?:(?:a|an|strict|strictly|fully|full|mostly|pretty much|basically|completely|totally|100%|now|on a|following a|going)\\s+)*(${DIET_ALT})(?:\\s+diet)?(?=$|\\s+(?:now|again|these days|nowadays|for|because|since|mostly|at the moment|most of the time|when|,))`,
    'i',
  ).exec(s);
  m ??= new RegExp(
    `^i (?:went|have gone|go|became|have become|turned|switched to|converted to|eat|have been eating|follow|am following|keep|started|have started|stick to|am on|have been on|do|am doing|tried|am trying|try|have been) (?:a |an |the |mostly |strictly |fully )?(${DIET_ALT})\\b`,
    'i',
  ).exec(s);
  m ??= new RegExp(`^i (?:switched|changed|went|moved|have switched|have gone) from (?:being )?(?:a |an )?(?:${DIET_ALT}) to (?:being )?(?:a |an )?(${DIET_ALT})\\b`, 'i').exec(s);
  if (m) return one('diet', dietWord(m[1]));
  m = /^i am (?:on|following|doing|trying) (?:a |an |the )?([\w\s-]+?) diet$/i.exec(s) ?? /^my diet is (?:mostly |strictly |fully )?(.+)$/i.exec(s);
  return m ? one('diet', dietWord(cleanEn(m[1]))) : null;
}

const MEATS = /^(?:meat|red meat|any meat|animal meat|meat products|animals|flesh|meat or fish|meat and fish|meat,? fish|meat nor fish|fish or meat|meat or seafood|meat and seafood|meat or poultry)$/i;
const ANIMAL_PRODUCTS = /^(?:animal products|any animal products|meat or dairy|meat and dairy|meat,? dairy,? (?:or|and) eggs|dairy or eggs|anything from animals|animal[- ]based (?:food|products))$/i;

/** Diet phrased through negation: "I don't eat meat (anymore)" means vegetarian, not an ended fact. */
function dietSpecialEn(s: string): Found[] | null {
  let m = /^i (?:do not|never|no longer|will not|try not to|choose not to) (?:eat|consume|touch) (?:any )?(.+?)(?:\s+(?:any ?more|any longer|at all|now|again|these days|anymore))*$/i.exec(s);
  m ??= /^i (?:stopped|quit|gave up|have stopped|have quit|have given up|cut out|have cut out) (?:eating )?(.+?)(?:\s+(?:entirely|completely|altogether|now))*$/i.exec(s);
  if (m) {
    const food = m[1].trim();
    if (MEATS.test(food)) return one('diet', 'vegetarian');
    if (ANIMAL_PRODUCTS.test(food)) return one('diet', 'vegan');
    return null;
  }
  m = /^i (?:started|have started|began|am starting|start|went back to) eating (fish|seafood|meat|chicken|beef|pork)\b/i.exec(s) ?? /^i eat (fish|seafood|meat|chicken) again\b/i.exec(s);
  if (m) return one('diet', /fish|seafood/i.test(m[1]) ? 'pescatarian' : 'omnivore');
  // A vegan who takes dairy or eggs back is a vegetarian.
  m = /^i (?:started|have started|began|am starting|start|went back to) (?:eating|having) (dairy|eggs|cheese|milk)\b/i.exec(s) ?? /^i (?:eat|have) (dairy|eggs|cheese|milk) again\b/i.exec(s);
  if (m) return one('diet', 'vegetarian');
  return null;
}

// ---- family and pets

const ENTITIES_EN: Record<string, string> = {
  mother: 'mother', mom: 'mother', mum: 'mother', mommy: 'mother', mummy: 'mother', mama: 'mother', momma: 'mother',
  father: 'father', dad: 'father', daddy: 'father', papa: 'father',
  parents: 'parents', folks: 'parents', sister: 'sister', sisters: 'sister', sis: 'sister', brother: 'brother', brothers: 'brother', bro: 'brother',
  sibling: 'sibling', siblings: 'sibling', wife: 'wife', husband: 'husband', hubby: 'husband', spouse: 'spouse', partner: 'partner',
  girlfriend: 'girlfriend', boyfriend: 'boyfriend', fiance: 'fiance', 'fiancé': 'fiance', fiancee: 'fiance', 'fiancée': 'fiance',
  son: 'son', sons: 'son', daughter: 'daughter', daughters: 'daughter', kid: 'child', kids: 'child', child: 'child', children: 'child',
  baby: 'baby', toddler: 'child', twins: 'twins', grandmother: 'grandmother', grandma: 'grandmother', granny: 'grandmother', nana: 'grandmother',
  grandfather: 'grandfather', grandpa: 'grandfather', granddad: 'grandfather', grandad: 'grandfather', grandparents: 'grandparents',
  grandson: 'grandson', granddaughter: 'granddaughter', grandchild: 'grandchild', grandchildren: 'grandchild', grandkids: 'grandchild',
  aunt: 'aunt', auntie: 'aunt', uncle: 'uncle', cousin: 'cousin', cousins: 'cousin', niece: 'niece', nieces: 'niece', nephew: 'nephew', nephews: 'nephew',
  stepmother: 'stepmother', stepmom: 'stepmother', stepfather: 'stepfather', stepdad: 'stepfather', stepson: 'stepson', stepdaughter: 'stepdaughter',
  stepbrother: 'stepbrother', stepsister: 'stepsister', 'half-brother': 'brother', 'half-sister': 'sister',
  'mother-in-law': 'mother-in-law', 'father-in-law': 'father-in-law', 'sister-in-law': 'sister-in-law', 'brother-in-law': 'brother-in-law', 'in-laws': 'in-laws',
  // pets
  dog: 'dog', dogs: 'dog', puppy: 'dog', puppies: 'dog', pup: 'dog', doggo: 'dog', cat: 'cat', cats: 'cat', kitten: 'cat', kittens: 'cat', kitty: 'cat',
  hamster: 'hamster', hamsters: 'hamster', rabbit: 'rabbit', rabbits: 'rabbit', bunny: 'rabbit', bunnies: 'rabbit', parrot: 'parrot', parrots: 'parrot',
  bird: 'bird', birds: 'bird', budgie: 'budgie', budgies: 'budgie', parakeet: 'budgie', canary: 'canary', fish: 'fish', goldfish: 'goldfish',
  turtle: 'turtle', turtles: 'turtle', tortoise: 'tortoise', snake: 'snake', snakes: 'snake', lizard: 'lizard', gecko: 'gecko', iguana: 'iguana',
  horse: 'horse', horses: 'horse', pony: 'pony', 'guinea pig': 'guinea pig', 'guinea pigs': 'guinea pig', ferret: 'ferret', ferrets: 'ferret',
  hedgehog: 'hedgehog', chinchilla: 'chinchilla', rat: 'rat', rats: 'rat', mouse: 'mouse', mice: 'mouse', gerbil: 'gerbil', gerbils: 'gerbil',
  chicken: 'chicken', chickens: 'chicken', hens: 'chicken', goat: 'goat', goats: 'goat', cockatiel: 'cockatiel', axolotl: 'axolotl', pet: 'pet', pets: 'pet',
};
const PET_WORDS = new Set([
  'dog', 'cat', 'hamster', 'rabbit', 'parrot', 'bird', 'budgie', 'canary', 'fish', 'goldfish', 'turtle', 'tortoise', 'snake', 'lizard', 'gecko', 'iguana',
  'horse', 'pony', 'guinea pig', 'ferret', 'hedgehog', 'chinchilla', 'rat', 'mouse', 'gerbil', 'chicken', 'goat', 'cockatiel', 'axolotl', 'pet',
]);
const escapeRe = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ENTITY_EN = Object.keys(ENTITIES_EN)
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join('|');
const ENTITY_MODIFIER =
  '(?:(?:older|younger|little|big|baby|elder|eldest|oldest|youngest|twin|new|pet|sweet|dear|late|only|rescue|rescued|old|lovely|beloved|cute|adorable|grown-up|adult|teenage|step|best|two|three|four|black|white|grey|gray|orange|ginger|tabby|fluffy)\\s+)*';
const COUNTS: Record<string, number> = { ...EN_NUMBERS, some: 0, any: 0, no: 0, my: 0, 'a couple of': 2 };
/**
 * Regexes here are case-insensitive, where \p{Lu} matches any letter; a name is told apart afterwards
 * by its capital: "my dog Rex died" names the dog, "my dog just died" does not.
 */
function leadingName(text: string): { name?: string; rest: string } {
  const m = /^(\p{Lu}[\p{L}'-]*)(?:\s+(.*))?$/u.exec(text);
  if (!m || /^(?:I|He|She|It|This|That|They|We|You)$/.test(m[1])) return { rest: text };
  return { name: m[1], rest: m[2] ?? '' };
}

function entityValue(word: string, name?: string, count?: number): Found {
  const kind = ENTITIES_EN[word.toLowerCase()];
  const slot: FactSlot = PET_WORDS.has(kind) ? 'pet' : 'family';
  const detail = name ? name.toLowerCase() : count && count > 1 ? String(count) : '';
  return { slot, value: detail ? `${kind}:${detail}` : kind };
}

function familyPetEn({ s }: EnContext): Found[] | null {
  // "my sister Anna …", "my dog is called Rex", "my mom's name is Mary", "my kids are 5 and 7"
  let m = new RegExp(`^(?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})\\b('s name is| is (?:called|named)| named| called)?\\s*,?\\s*(.*)$`, 'iu').exec(s);
  if (m && m[3]) {
    // The name follows "is called" / "named", or is simply the capitalised word after the noun.
    const first = /^[\p{L}'-]+/u.exec(m[3])?.[0];
    const name = first && (m[2] || (/^\p{Lu}/u.test(first) && first !== 'I')) ? first : undefined;
    return [entityValue(m[1], name)];
  }
  // "I have two kids", "we adopted a cat named Luna", "I have a sister named Anna and a brother named Tom"
  m = /^(?:i|we) (?:have|got|own|adopted|rescued|bought|just got|have adopted|have rescued|welcomed|are expecting|am expecting|am having|are having|live with|take care of|look after) (.+)$/i.exec(s);
  if (m) {
    const item = new RegExp(
      `^(?:(a couple of|a|an|one|two|three|four|five|six|seven|eight|nine|ten|\\d+|some|any|no|my)\\s+)?${ENTITY_MODIFIER}(${ENTITY_EN})\\b(?:\\s*,?\\s*(?:named|called|whose name is)\\s+([\\p{L}'-]+))?`,
      'iu',
    );
    const found = m[1]
      .split(/\s*,\s*(?:and\s+)?|\s+and\s+/i)
      .map((part) => item.exec(part.trim()))
      .filter((x): x is RegExpExecArray => x !== null)
      .map((x) => {
        const found = entityValue(x[2], x[3], x[1] ? (COUNTS[x[1].toLowerCase()] ?? Number(x[1])) : 1);
        // "I have no siblings" denies them.
        return x[1]?.toLowerCase() === 'no' ? { ...found, negated: true } : found;
      });
    if (found.length) return found;
  }
  m = new RegExp(`^(\\S+) is (?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})$`, 'iu').exec(s);
  const named = m && leadingName(m[1]).name;
  if (m && named) return [entityValue(m[2], named)];
  m = /^i am (?:a )?(?:proud |single |new |first-time )?(?:mom|mother|mum|dad|father|parent)(?: of (\w+))?/i.exec(s);
  if (m) return one('family', m[1] && enNumber(m[1]) > 1 ? `child:${enNumber(m[1])}` : 'child');
  m = /^i am (?:a )?(?:proud )?(?:grandmother|grandfather|grandma|grandpa|grandparent)\b/i.exec(s);
  if (m) return one('family', 'grandchild');
  m = /^i (?:am|got|have gotten|just got) (married|engaged)(?: to (.+))?$/i.exec(s);
  if (m) {
    const partner = m[2] && cleanName(m[2]);
    if (m[1].toLowerCase() === 'married') return one('family', partner ? `spouse:${partner}` : 'married');
    return one('family', partner ? `fiance:${partner}` : 'engaged');
  }
  m = /^i (?:am|got) (single|divorced|widowed|separated)$/i.exec(s);
  return m ? one('family', m[1].toLowerCase()) : null;
}

/** "My wife and I moved to Lisbon": a family member, and the clause restated with "we". */
function companionEn(ctx: EnContext): Found[] | null {
  const m =
    new RegExp(`^(?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})\\s+(?:(\\S+)\\s+)?and i (.+)$`, 'iu').exec(ctx.s) ??
    new RegExp(`^me and (?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})()\\s+(.+)$`, 'iu').exec(ctx.s);
  if (!m) return null;
  const { name, rest } = m[2] ? { name: leadingName(m[2]).name, rest: m[3] } : leadingName(m[3]);
  const we = `we ${rest}`;
  const more = locationEn({ ...ctx, s: we }) ?? planEn({ ...ctx, s: we }) ?? [];
  return [entityValue(m[1], name), ...more];
}

const PET_LOSS = /^(?:(?:just|recently|sadly|finally|unfortunately|tragically)\s+)?(?:died|passed away|passed|ran away|is gone|got lost|went missing|was put down|had to be put down|is no longer with us)\b/i;

function petLossEn(s: string): Found[] | null {
  let m = new RegExp(`^(?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})\\s+(.+)$`, 'iu').exec(s);
  if (m && PET_WORDS.has(ENTITIES_EN[m[1].toLowerCase()])) {
    const { name, rest } = leadingName(m[2]);
    if (PET_LOSS.test(rest)) return [{ ...entityValue(m[1], name), negated: true }];
  }
  m = new RegExp(`^(?:i|we) (?:gave away|rehomed|gave up|had to give up|had to rehome|lost|sold) (?:my|our) ${ENTITY_MODIFIER}(${ENTITY_EN})\\b\\s*(.*)$`, 'iu').exec(s);
  if (m && PET_WORDS.has(ENTITIES_EN[m[1].toLowerCase()])) return [{ ...entityValue(m[1], leadingName(m[2]).name), negated: true }];
  return null;
}

// ---- location

const LIVE_EN =
  '(?:live|am living|are living|have lived|have been living|been living|reside|am residing|have resided|am staying|stay|am based|are based|am located|am settled|have settled|settled|am now living)';

function placeValue(text: string): string | null {
  const value = cleanEn(cutEn(text, 'keep-before-capital')).replace(/^(?:the city of|the town of)\s+/, '');
  if (!value || /^(?:here|there|it|this|that|a house|an apartment|a flat|a van|a house with .*|my car|the same place)$/.test(value)) return null;
  return value.split(' ').length <= 6 ? value : null;
}

function locationEn({ s }: EnContext): Found[] | null {
  const m =
    new RegExp(`^(?:i|we) ${LIVE_EN} (?:in|at|on) (.+)$`, 'i').exec(s) ??
    /^(?:i|we) (?:have |had )?(?:moved|relocated|emigrated|immigrated|migrated)(?: (?:back|over|out|house|home))?(?: from .+?)? to (.+)$/i.exec(s) ??
    /^i am (?:originally )?from (.+)$/i.exec(s) ??
    /^i (?:come|came|hail) (?:originally )?from (.+)$/i.exec(s) ??
    /^i (?:was (?:born and )?(?:raised|brought up)|grew up) in (.+)$/i.exec(s) ??
    /^my (?:home ?town|home town|home|house|apartment|flat|place|address|home address|city) is (?:in |at |on )?(.+)$/i.exec(s) ??
    /^(?:i|we) (?:have )?(?:bought|rented|own) (?:a |an )?(?:house|flat|apartment|condo|place|home) in (.+)$/i.exec(s) ??
    /^i am (?:a |an )?(?:resident|native|local) of (.+)$/i.exec(s);
  const place = m && placeValue(m[1]);
  return place ? one('location', place) : null;
}

/** "I moved out of Berlin" (and nowhere named): the old home ends. */
function movedAwayEn(s: string): Found[] | null {
  const m = /^(?:i|we) (?:have )?(?:moved|relocated) (?:away )?(?:out of|away from|from) (.+)$/i.exec(s);
  if (!m || /\bto\b/i.test(m[1])) return null;
  const place = placeValue(m[1]);
  return place ? one('location', place, true) : null;
}

// ---- work

const PROFESSIONS = new Set(
  `accountant actor actress administrator analyst architect artist assistant attorney author baker banker barber barista bartender biologist bookkeeper builder butcher carpenter cashier ceo cfo cto coo chef chemist cleaner clerk coach consultant contractor cook coordinator counselor counsellor courier dancer dentist designer detective developer dietitian director doctor driver economist editor electrician engineer entrepreneur executive farmer firefighter founder co-founder cofounder freelancer gardener geologist guard guide hairdresser historian intern janitor journalist judge laborer labourer lawyer lecturer librarian lifeguard manager marketer mathematician mechanic midwife miner model musician nanny nurse officer painter paralegal paramedic pharmacist photographer physician physicist physiotherapist pilot plumber poet policeman policewoman politician postdoc postman producer professor programmer psychiatrist psychologist publisher receptionist recruiter researcher reporter salesman saleswoman salesperson scientist secretary singer soldier specialist statistician student supervisor surgeon surveyor tailor teacher technician therapist trader translator tutor veterinarian vet waiter waitress welder writer youtuber streamer sommelier optometrist cardiologist radiologist nutritionist housekeeper caregiver carer volunteer principal dean accountant auditor cook illustrator animator copywriter blogger influencer vlogger podcaster realtor broker agent investor pastor priest rabbi imam monk nun diplomat ambassador mayor senator firefighter sailor fisherman`.split(
    /\s+/,
  ),
);

function isProfession(phrase: string): boolean {
  const head = phrase.toLowerCase().split(/\s+(?:at|for|in|with|of|from)\s+/)[0].trim();
  const last = head.split(/\s+/).pop() ?? '';
  return PROFESSIONS.has(last) || /(?:ologist|ician|iatrist|ographer)$/.test(last);
}

const WORK_STATES: [RegExp, string][] = [
  [/^(?:retired|a retiree|a pensioner)$/i, 'retired'],
  [/^(?:unemployed|jobless|out of work|between jobs|looking for (?:a )?(?:job|work))$/i, 'unemployed'],
  [/^(?:self-employed|self employed)$/i, 'self-employed'],
  [/^(?:a )?(?:freelancer|freelancing|freelance)$/i, 'freelancer'],
  [/^a (?:stay-at-home|stay at home) (?:mom|dad|parent|mother|father)$|^a (?:homemaker|housewife|househusband)$/i, 'homemaker'],
];
const BORING_JOB = /^(?:boring|fun|great|hard|stressful|ok|okay|fine|good|bad|tiring|demanding|busy|exhausting|interesting|awesome|terrible|amazing|difficult|easy|tough|intense|rewarding|well paid|underpaid)$/i;

function workEn({ s }: EnContext): Found[] | null {
  let m =
    /^i (?:work|am working|have worked|have been working|been working) (?:full[- ]time |part[- ]time |remotely |remote )?(?:at|for|in|with|on) (.+)$/i.exec(s) ??
    /^i (?:work|am working) as (?:an? )?(.+)$/i.exec(s) ??
    /^i am (?:employed|hired|working) (?:at|by|for) (.+)$/i.exec(s) ??
    /^i (?:got|landed|started|accepted|took|have|just got|have got|started a) (?:a |an |my |the )?(?:new )?(?:job|position|role|internship|gig) (?:at|with|as|for) (?:an? )?(.+)$/i.exec(s) ??
    /^i (?:started|have started) (?:working|work) (?:at|for) (.+)$/i.exec(s);
  if (m) {
    const value = cleanEn(cutEn(m[1]));
    return value ? one('work', value) : null;
  }
  m = /^my (?:job|profession|occupation|role|position|title|job title|day job|work) is (?:as )?(?:an? )?(.+)$/i.exec(s);
  if (m) {
    const value = cleanEn(cutEn(m[1]));
    return value && !BORING_JOB.test(value) ? one('work', value) : null;
  }
  m = /^i (?:am|have been|became|have become) (.+)$/i.exec(s);
  if (m) {
    const state = WORK_STATES.find(([pattern]) => pattern.test(m![1].trim()));
    if (state) return one('work', state[1]);
    const phrase = m[1].replace(/^(?:an?|the)\s+/i, '');
    if (/^(?:an?|the)\s/i.test(m[1]) && isProfession(phrase)) return one('work', cleanEn(cutEn(phrase)));
  }
  if (/^i (?:retired|have retired)$/i.test(s)) return one('work', 'retired');
  m = /^i (?:study|am studying|am a student|am majoring in .+?) (?:at|in) (.+)$/i.exec(s) ?? /^i am studying .+? at (.+)$/i.exec(s);
  if (m) return one('work', `student at ${cleanEn(cutEn(m[1]))}`);
  m = /^i teach (.+)$/i.exec(s);
  return m ? one('work', `teach ${cleanEn(cutEn(m[1]))}`) : null;
}

/** "I quit my job", "I got laid off from Acme": the job ends (a negated work fact; no value = whatever job it was). */
function workEndEn(s: string): Found[] | null {
  let m = /^i (?:quit|left|lost|resigned from|got fired from|was fired from|got laid off from|was laid off from|got let go from|have quit|have left|have lost) (?:my |the )?(?:job|position|role|work)(?: (?:at|with|as|in) (?:an? )?(.+))?$/i.exec(s);
  m ??= /^i (?:got|was|have been|just got) (?:fired|laid off|let go|sacked|made redundant)(?: (?:from|at|by) (.+))?$/i.exec(s);
  m ??= /^i (?:resigned|quit)(?: from (.+))?$/i.exec(s);
  if (m) return one('work', m[1] ? cleanEn(cutEn(m[1])) : '', true);
  return null;
}

// ---- plans

const PLAN_TRIVIAL =
  /^(?:sleep|bed|go|leave|be honest|ask|try|need|say|tell|give|take a (?:shower|nap|break|look)|check|think|eat|have (?:lunch|dinner|breakfast)|start with|stop|continue|explain|answer|reply|respond|do (?:that|this|it)|make (?:it|this|that|sure)|be (?:right )?back|log off|head out|rest|relax|nap|shower|get going|get some sleep|be fine|be ok|be okay|need to|have to|miss|regret|cry|die|lose it|go now|go to (?:bed|sleep))\b/i;
const PLAN_VERBS =
  /^(?:go|visit|travel|fly|move|start|begin|attend|take|run|get married|retire|graduate|learn|study|buy|open|launch|quit|switch|change|apply|climb|hike|drive|spend|see|meet|celebrate|return|join|adopt|build|write|finish|have|get|be)\b/i;
const REQUESTY = /^(?:know|ask|understand|see (?:if|whether|what|how)|check|talk|chat|say|tell|find out|hear|make sure|be sure|clarify|confirm|learn more about|discuss|get (?:a|an|some) (?:recipe|recommendation|idea|list|summary))\b/i;
const DETERMINER = /^(?:the|a|an|my|our|his|her|their)\b/i;

function planValue(object: string, isGoing: boolean): string | null {
  let v = cleanEn(cutEn(object));
  if (!v || PLAN_TRIVIAL.test(v) || MENTIONS_ASSISTANT.test(v) || PRONOUN_OBJECT.test(v)) return null;
  if (isGoing) {
    const destination = /^\p{Lu}/u.test(object.trim()) || DETERMINER.test(object.trim());
    if (destination) v = `go to ${v}`;
  }
  return v;
}

function planEn({ s, future }: EnContext): Found[] | null {
  let m = /^(?:i|we) (?:am|are) (?:going|heading|off) (?:to|back to) (.+)$/i.exec(s);
  if (m) {
    const v = planValue(m[1], true);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:am|are) (flying|driving|travell?ing|moving|relocating|returning|going back|coming back|taking a trip|emigrating) (?:to|back to) (.+)$/i.exec(s);
  if (m) {
    const v = planValue(m[2], false);
    return v ? one('plan', `${m[1].toLowerCase()} to ${v}`) : null;
  }
  m =
    /^(?:i|we) (?:am|are) (?:planning|hoping|intending|aiming|preparing|about|thinking of|thinking about|considering|looking forward to|excited to|excited about|scheduled|due|set|supposed|getting ready) (?:to |on |for )?(.+)$/i.exec(s) ??
    /^(?:i|we) (?:plan|intend|hope|aim|expect|have planned|have decided|decided|am determined|are determined) to (.+)$/i.exec(s) ??
    /^my (?:plan|plans|goal|dream|resolution|new year's resolution|new year resolution|next trip|next vacation|next holiday|aim)(?: for [\w\s]+?)? (?:is|are) (?:to )?(.+)$/i.exec(s);
  if (m) {
    const v = planValue(m[1], false);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:want|would love|would like|wish|really want|am dying) to (.+)$/i.exec(s);
  if (m && !REQUESTY.test(m[1])) {
    const v = planValue(m[1], false);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:will|shall|am going to have to|need to|have to|must|should) (?:be )?(.+)$/i.exec(s);
  if (m && (future || (/^i will\b/i.test(s) && PLAN_VERBS.test(m[1])))) {
    const v = planValue(m[1], false);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:have|got) (?:an? |my |the |our )?((?:upcoming |big |important |job |doctor's |dentist |doctor |dental |final |first |school )*(?:trip|vacation|holiday|appointment|interview|exam|exams|wedding|flight|conference|surgery|operation|date|concert|match|game|race|marathon|test|presentation|deadline|visit|party)\b.*)$/i.exec(s);
  if (m) {
    const v = planValue(m[1].replace(/^upcoming\s+/i, ''), false);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:am|are) ([a-z]+ing) (.+)$/i.exec(s);
  if (m && future && !/^(?:feeling|thinking|wondering|looking|trying|asking|going|hoping|being)$/i.test(m[1])) {
    const v = planValue(`${m[1]} ${m[2]}`, false);
    return v ? one('plan', v) : null;
  }
  m = /^(?:i|we) (?:am|are) getting (married|divorced)$/i.exec(s);
  return m && future ? one('plan', `get ${m[1].toLowerCase()}`) : null;
}

/** "I cancelled my trip to Japan": the plan is off. */
function cancelledPlanEn(s: string): Found[] | null {
  const m = /^(?:i|we) (?:cancelled|canceled|have cancelled|have canceled|called off|postponed indefinitely|scrapped|gave up on|dropped) (?:my |our |the )?(?:plans? (?:to |for )?)?(.+)$/i.exec(s);
  const v = m && cleanEn(cutEn(m[1]));
  return v ? one('plan', v, true) : null;
}

// ---- plain self-disclosure

const TRIVIAL_FEATURES = new Set(
  contentFeatures(
    'ok okay fine good great well sure thank thanks sorry yes yeah yep nope hi hello hey back here there ready done tired hungry thirsty bored busy lol haha cool nice agree see think know guess mean understand wonder happy sad glad excited confused lost curious today tonight now right just still kind sort thing things stuff something anything nothing lot bit really much feel feeling felt got get going go sleepy sleep home late early soon one sick ill stressed exhausted doing alright awake asleep totally completely kidding joking serious',
  ),
);
const EN_CHATTER =
  /^i (?:think|guess|believe|mean|wonder|suppose|bet|agree|disagree|see|understand|know|do not know|am not sure|am sure|hope|feel like|was wondering|am wondering|am curious|was curious|have a question|just wanted|want to know|would like to know|need to know|need help|need some help|am just asking|was just asking|am asking|forgot|remember|recall|do not remember|do not recall|can not remember|am back|am here|am done|am ready|will try|will do|will think|would say|am looking for|am trying to|tried to|asked|said|told|mentioned|meant|am sorry|apologi[sz]e|appreciate|thank|am kidding|was kidding|am joking|was joking|got it|get it|would love|would like|have to go|need to go|must go)\b/i;

const EN_MY_CHATTER = /^my (?:pleasure|bad|question|point|guess|apologies|mistake|fault|turn|answer|thoughts?|opinion|take|two cents|idea|suggestion|request)\b/i;

function statementEn(s: string, negated: boolean): Found[] {
  if (!/^(?:i|my|mine|me and)\b/i.test(s) || EN_CHATTER.test(s) || EN_MY_CHATTER.test(s) || MENTIONS_ASSISTANT.test(s)) return [];
  // "I like it", "I'm going to bed": an opinion about the chat or a passing moment, not a fact about the user.
  if (/^i (?:like|love|hate|enjoy|adore|prefer|dislike) /i.test(s) && PRONOUN_OBJECT.test(s.replace(/^i \w+ /i, ''))) return [];
  const going = /^(?:i|we) (?:am going to|are going to|will|am about to|am off to) (.+)$/i.exec(s);
  if (going && PLAN_TRIVIAL.test(going[1])) return [];
  const features = contentFeatures(s).filter((f) => !TRIVIAL_FEATURES.has(f));
  const wordCount = s.split(/\s+/).length;
  const substantive = features.length >= 2 || (features.length === 1 && (wordCount >= 3 || features[0].length >= 5));
  return substantive ? one('statement', statementValue(s), negated) : [];
}

/** Statements compare by wording: lower-case words, punctuation dropped. */
function statementValue(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}'\s]+/gu, ' ').replace(/\s+/g, ' ').trim();
}

// =============================================================================================
// Chinese

const ZH_PARTICLES = /[了啦呢哦呀吧啊嘛哈喔噢～~]+$/u;

function cleanZh(value: string): string {
  return value
    .replace(/^[，,：:\s]+|[，,。.!！?？\s]+$/gu, '')
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
const ZH_ADVERBS = /^我(?:们)?((?:现在|目前|如今|也|还|一直|已经|刚刚|刚|最近|其实|真的|本来|平时|都|就|又|才|正在|从小|从来|一般|通常|确实|的确|终于|总是|基本上|主要|挺|从)+)/u;

function stripZhAdverbs(s: string): string {
  return s.replace(ZH_ADVERBS, (m, adverbs: string) => m.slice(0, m.length - adverbs.length));
}

type ZhContext = { s: string; raw: string; future: boolean; fromNegation: boolean };

function matchZh(original: string, time: TimeInfo): Found[] {
  const s0 = time.rest;
  const special = dietSpecialZh(s0) ?? workEndZh(s0) ?? petLossZh(s0) ?? cancelledPlanZh(s0) ?? movedAwayZh(s0);
  if (special) return special;
  if (ZH_CHATTER.test(s0)) return [];

  const change = /不再|再也不|已经不|早就不|已经没有?|以前|过去|曾经|不.{0,12}了$|没有?.{0,12}了$/u.test(s0);
  const plain = /^我.{0,4}?(?:不(?!耐|错|过敏)|没有|没)/u.test(s0) || /^我对.+?不过敏/u.test(s0);
  const raw = stripZhAdverbs(original.replace(/\s+/g, ''));
  const ctx: ZhContext = { s: stripZhAdverbs(s0), raw, future: time.future, fromNegation: false };
  if (!change && !plain) return positiveZh(ctx) ?? statementZh(s0, false);
  if (!change) {
    const dislike = dislikeZh(ctx);
    if (dislike) return dislike;
  }
  const positive = stripZhAdverbs(removeNegationZh(s0));
  const found = positiveZh({ s: positive, raw: positive, future: time.future, fromNegation: true });
  if (found?.length) return found.map((f) => ({ ...f, negated: true }));
  return change ? statementZh(positive, true) : statementZh(s0, false);
}

function removeNegationZh(s: string): string {
  return s
    .replace(/以前|过去|曾经/gu, '')
    .replace(/不再|再也不|早就不|已经不/u, '')
    .replace(/已经没有|没有/u, '有')
    .replace(/没(?=养|在|住|吃|是)/u, '')
    .replace(/不/u, '')
    .replace(/[了啦喽]+$/u, '');
}

const MATCHERS_ZH: ((ctx: ZhContext) => Found[] | null)[] = [
  nameZh,
  dateZh,
  dislikeZh,
  allergyZh,
  dietZh,
  familyZh,
  petZh,
  locationZh,
  workZh,
  planZh,
  likeZh,
  surnameIntroZh,
];

function positiveZh(ctx: ZhContext): Found[] | null {
  for (const matcher of MATCHERS_ZH) {
    const found = matcher(ctx);
    if (found?.length) return found;
  }
  return null;
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

function nameZh({ s }: ZhContext): Found[] | null {
  const m =
    /^我(?:的)?(?:名字|姓名|全名|真名|大名)(?:是|叫)(.+)$/u.exec(s) ??
    /^我(?:叫做|叫|名叫)(?!了)(.+)$/u.exec(s) ??
    /^(?:你可以|你就|大家都|朋友们都|别人都|他们都|大家|朋友们)?叫我(.+?)(?:就(?:行|好|可以)了?|吧|好了)?$/u.exec(s);
  const name = m && zhName(m[1]);
  return name ? one('name', name) : null;
}

const SURNAMES = new Set(
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤欧司上诸',
);

/** 我是张三: a short all-Han phrase starting with a common surname, or a Latin name, is a self-introduction. */
function surnameIntroZh({ s }: ZhContext): Found[] | null {
  const m = /^我是([A-Z][A-Za-z'-]+(?: [A-Z][A-Za-z'-]+)?|\p{Script=Han}{2,3})$/u.exec(s);
  if (!m) return null;
  const name = m[1];
  if (/^[A-Za-z]/.test(name)) return NATIONALITIES.test(name) ? null : one('name', name.toLowerCase());
  return SURNAMES.has(name[0]) && !/[人者师员生家长手士们的个]$/u.test(name) ? one('name', name) : null;
}

// ---- dates

function parseDateZh(text: string): string | null {
  const t = text.replace(/\s+/g, '');
  const m = /^(?:在|是)?(?:((?:19|20)\d{2}|[零〇一二三四五六七八九]{4})年)?(?:(\d{1,2}|十[一二]?|[一二三四五六七八九])月(?:(\d{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])[日号]?)?)?/u.exec(t);
  if (!m || (!m[1] && !m[2])) {
    const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
    return iso ? iso[0] : null;
  }
  const year = m[1] ? `${cnNumber(m[1])}` : '';
  if (!m[2]) return year;
  const month = pad(cnNumber(m[2]) ?? 1);
  const day = m[3] ? `-${pad(cnNumber(m[3]) ?? 1)}` : '';
  return `${year ? `${year}-` : ''}${month}${day}`;
}

const ZH_OCCASIONS: Record<string, string> = { 生日: 'birthday', 出生日期: 'birthday', 结婚纪念日: 'anniversary', 纪念日: 'anniversary' };

function dateZh({ raw: s }: ZhContext): Found[] | null {
  let m = new RegExp(`^我(?:们)?(?:的)?(?:(${REL_ZH})的?)?(生日|出生日期|结婚纪念日|纪念日)(?:是|在|为|：|:)?(.+)$`, 'u').exec(s);
  if (m) {
    const date = parseDateZh(m[3]);
    if (!date) return null;
    // Own occasions share the English keys ("birthday:05-03"); someone else's keep the Chinese words ("女儿的生日:06-01").
    return one('date', `${m[1] ? `${relKey(m[1])}的${m[2]}` : ZH_OCCASIONS[m[2]]}:${date}`);
  }
  m = /^我(?:是)?(.+?)(?:出生|生)的?$/u.exec(s);
  const date = m && parseDateZh(m[1]);
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
  let m = /^我(?:最|最最)喜欢的(.+?)(?:是|就是)(.+)$/u.exec(s);
  if (m) return zhObjects(m[2]).map((value) => ({ slot: 'like', value }));
  m = /^(.+?)是我最(?:喜欢|爱)的(.*)$/u.exec(s);
  if (m) return zhObjects(m[1]).map((value) => ({ slot: 'like', value }));
  m =
    /^我的(?:爱好|兴趣|兴趣爱好|业余爱好)(?:是|有|包括)(.+)$/u.exec(s) ??
    /^我是(.+?)的(?:粉丝|忠实粉丝|铁粉|爱好者|迷)$/u.exec(s) ??
    /^我是(.+?)(?:迷|爱好者|粉)$/u.exec(s) ??
    /^我对(.+?)(?:很|非常|特别|超级)?感兴趣$/u.exec(s) ??
    new RegExp(`^我${ZH_INTENSIFIERS}(?:喜欢|爱|热爱|喜爱|钟爱|痴迷|迷上了|爱上了|迷恋|着迷于|偏爱|爱好|沉迷于?)(.+)$`, 'u').exec(s);
  return m ? zhObjects(m[1]).map((value) => ({ slot: 'like', value })) : null;
}

function dislikeZh({ s }: ZhContext): Found[] | null {
  let m = /^我最(?:讨厌|不喜欢|受不了)的(.+?)(?:是|就是)(.+)$/u.exec(s);
  if (m) return zhObjects(m[2]).map((value) => ({ slot: 'dislike', value }));
  m = new RegExp(`^我${ZH_INTENSIFIERS}(?:讨厌|不喜欢|不太喜欢|不怎么喜欢|不爱|受不了|忍受不了|恨|厌恶|反感|害怕|怕|烦)(.+)$`, 'u').exec(s);
  return m ? zhObjects(m[1]).map((value) => ({ slot: 'dislike', value })) : null;
}

// ---- allergies

function allergyZh({ s }: ZhContext): Found[] | null {
  const m =
    /^我对(.+?)(?:有点|有些|非常|很|特别|严重|比较|有一点|轻微|会)*过敏(?:症)?$/u.exec(s) ??
    /^我(?:的)?过敏原(?:是|有)(.+)$/u.exec(s) ??
    /^我(?:有)?(?!有点|有些|很|会|对)(.+?)过敏(?:症)?$/u.exec(s);
  if (m) return splitListZh(m[1]).map((value) => ({ slot: 'allergy', value }));
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
    /^我(?:是|成了|变成了|成为了)?(?:一个|一名|个)?(纯素食者|纯素主义者|素食主义者|素食者|鱼素者|弹性素食者|素食的人|吃素的人?|吃素的)(?:了)?$/u.exec(s) ??
    /^我(?:吃|在吃|开始吃|改吃|只吃|坚持吃|改成吃|开始)(纯素|全素|素食|素|斋|鱼素|海鲜素|清真|生酮(?:饮食)?)(?:的)?(?:了)?$/u.exec(s) ??
    /^我(?:在|正在)?(?:做|进行|坚持|遵循)?(生酮饮食|生酮|低碳水饮食|无麸质饮食)(?:了)?$/u.exec(s) ??
    /^我的饮食(?:是|习惯是)(.+)$/u.exec(s);
  return m ? one('diet', zhDietWord(m[1])) : null;
}

/** 我不吃肉 = vegetarian; 我又开始吃鱼了 = pescatarian: diet said through negation or change. */
function dietSpecialZh(s: string): Found[] | null {
  if (/^我(?:已经|现在)?(?:不再|再也不|早就不|已经不|不)(?:吃|碰)(?:任何)?(?:动物制品|动物产品|肉蛋奶|肉和奶)/u.test(s)) return one('diet', 'vegan');
  if (/^我(?:已经|现在)?(?:不再|再也不|早就不|已经不|不)(?:吃|碰)(?:任何)?(?:肉|荤|荤菜|肉类|肉和鱼)(?:了)?$/u.test(s)) return one('diet', 'vegetarian');
  if (/^我(?:已经|现在)?(?:戒了|戒掉了|戒)(?:肉|荤)/u.test(s)) return one('diet', 'vegetarian');
  const m = /^我(?:现在|又|也|已经)?(?:重新|又)?(?:开始)?吃(鱼|海鲜|肉|荤)(?:了)$|^我(?:又|重新)(?:开始)?吃(鱼|海鲜|肉|荤)/u.exec(s);
  if (m) return one('diet', /鱼|海鲜/u.test(m[1] ?? m[2]) ? 'pescatarian' : 'omnivore');
  return null;
}

// ---- family and pets

const RELS_ZH = [
  '外甥女', '男朋友', '女朋友', '未婚夫', '未婚妻', '双胞胎', '老妈', '老爸', '妈妈', '母亲', '爸爸', '父亲', '父母', '爸妈', '姐姐', '妹妹', '哥哥', '弟弟',
  '兄弟', '姐妹', '老婆', '妻子', '太太', '爱人', '老公', '丈夫', '儿子', '女儿', '孩子', '小孩', '宝宝', '爷爷', '奶奶', '外公', '外婆', '姥姥', '姥爷',
  '孙子', '孙女', '叔叔', '阿姨', '舅舅', '姑姑', '伯伯', '表哥', '表姐', '表弟', '表妹', '堂哥', '堂姐', '堂弟', '堂妹', '男友', '女友', '侄子', '侄女',
  '外甥', '妈', '爸',
];
const REL_ZH = RELS_ZH.join('|');
const SPECIES_ZH: Record<string, string> = {
  猫咪: '猫', 小猫: '猫', 喵星人: '猫', 猫: '猫', 狗狗: '狗', 小狗: '狗', 汪星人: '狗', 狗: '狗', 小兔子: '兔子', 兔子: '兔子', 兔: '兔子',
  仓鼠: '仓鼠', 鹦鹉: '鹦鹉', 小鸟: '鸟', 鸟: '鸟', 金鱼: '金鱼', 鱼: '鱼', 乌龟: '乌龟', 龟: '乌龟', 蛇: '蛇', 蜥蜴: '蜥蜴', 马: '马',
  荷兰猪: '豚鼠', 豚鼠: '豚鼠', 刺猬: '刺猬', 龙猫: '龙猫', 宠物: '宠物',
};
const SPECIES_ZH_RE = Object.keys(SPECIES_ZH)
  .sort((a, b) => b.length - a.length)
  .join('|');
const REL_CANON: Record<string, string> = { 妈: '妈妈', 老妈: '妈妈', 母亲: '妈妈', 爸: '爸爸', 老爸: '爸爸', 父亲: '爸爸', 爸妈: '父母', 小孩: '孩子', 男友: '男朋友', 女友: '女朋友' };
const ZH_COUNT = '(\\d+|[一二两三四五六七八九十几]+)';

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
  if (m && !/^的?(?:生日|纪念日)/u.test(m[2])) return one('family', keyed(relKey(m[1]), zhEntityName(m[2])));
  m = new RegExp(`^我(?:们)?(?:家)?有(.+)$`, 'u').exec(s);
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
    `^我(?:们)?(?:家)?(?:养了|养着|养|有|领养了|收养了|买了|新养了|捡了|又养了|捡到了)${ZH_COUNT}?(?:只|条|个|头|匹|隻)?(?:小)?(${SPECIES_ZH_RE})(.*)$`,
    'u',
  ).exec(s);
  if (m) return one('pet', keyed(SPECIES_ZH[m[2]], zhEntityName(m[3]), m[1] ? cnNumber(m[1]) : 1));
  m = new RegExp(`^我(?:的|家的?|们家的?)(${SPECIES_ZH_RE})(.+)$`, 'u').exec(s);
  if (m) return one('pet', keyed(SPECIES_ZH[m[1]], zhEntityName(m[2])));
  return null;
}

function petLossZh(s: string): Found[] | null {
  let m = new RegExp(`^我(?:的|家的?|们家的?)(${SPECIES_ZH_RE})([A-Za-z]+|\\p{Script=Han}{0,3}?)?(?:死了|去世了|走了|丢了|跑丢了|不见了|没了)`, 'u').exec(s);
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
    /^我(?:们)?(?:搬家)?搬(?:到|去|来)了?(.+)$/u.exec(s) ??
    /^我(?:们)?在(.+?)(?:生活|居住|定居|安家|住|落户|长大)$/u.exec(s) ??
    /^我(?:是)?(?:来自|从)(.+?)(?:来的)?$/u.exec(s) ??
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

function isZhProfession(phrase: string): boolean {
  return ZH_PROFESSION.test(phrase) && !NOT_PROFESSION.test(phrase);
}

const ZH_STUDENT: Record<string, string> = { 研: '研究生', 博: '博士生', 硕: '硕士生', 大: '大学生', 本: '大学生', 高: '高中生', 初: '初中生', 小: '小学生' };

function workZh({ s }: ZhContext): Found[] | null {
  let m = /^我(?:们)?在(.+?)(?:工作|上班|任职|供职|实习|打工|做事|就职)$/u.exec(s);
  if (m) return one('work', cleanZh(m[1]).replace(/^(?:一家|一个|一所|一间|家|个)/u, ''));
  m = /^我(?:在)?(?:读|念|上)(研究生|博士|硕士|大学|本科|高中|初中|小学|大[一二三四]|研[一二三])$/u.exec(s);
  if (m) return one('work', ZH_STUDENT[m[1][0]] ?? `${m[1]}生`);
  m = /^我(?:在.+?)?(?:当|做|担任)(.+)$/u.exec(s);
  if (m && isZhProfession(cleanZh(m[1]))) return one('work', cleanZh(m[1]));
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
  if (m) return one('work', cleanZh(m[1]), true);
  m = /^我(?:已经)?(?:辞职|离职|被(?:裁|裁员|辞退|解雇|开除|炒鱿鱼)|失业|丢了工作|把工作辞了)/u.exec(s);
  return m ? one('work', '', true) : null;
}

// ---- plans

const ZH_PLAN_VERB = /^(?:去|学|考|买|搬|参加|结婚|换|开始|回|旅行|旅游|出国|留学|报名|辞职|创业|跑|爬|看望|拜访|见|装修|生|养|读|申请|办)/u;
const ZH_NOT_PLAN = /^(?:知道|问|想|说|让你|请你|了解|确认|看看你|要你)/u;

function zhPlanValue(text: string): string | null {
  const v = cleanZh(cutZh(text)).replace(/^(?:一个|一场|个|场)/u, '');
  return v && !ZH_NOT_PLAN.test(v) && !/你|您/u.test(v) ? v : null;
}

function planZh({ s, future, fromNegation }: ZhContext): Found[] | null {
  let m = /^我(?:们)?(?:打算|计划|准备|决定|预计|正准备|正打算|正计划)(?:要)?(.+)$/u.exec(s) ?? /^我(?:的)?(?:计划|目标|梦想|新年愿望|愿望)是(.+)$/u.exec(s);
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

// ---- plain self-disclosure

const ZH_CHATTER =
  /^我(?:觉得|认为|想知道|想问|想想|不知道|不确定|明白|懂|同意|知道了|看看|试试|猜|忘了|是说|的意思是|也是|有个问题|有一个问题|有问题|在想|没事|还好|回来了|来了|走了|先走了|去睡了)/u;
const ZH_FILLER = /[我的了是很也都就还在吗呢吧啊呀哦嘛个一这那着过太真挺好]/gu;

function statementZh(s: string, negated: boolean): Found[] {
  if (!/^我/u.test(s) || /你|您/u.test(s) || ZH_CHATTER.test(s)) return [];
  const content = s.replace(ZH_FILLER, '').replace(/[^\p{L}\p{N}]/gu, '');
  return content.length >= 2 ? one('statement', cleanZh(s), negated) : [];
}
