/**
 * Dates said in a text → absolute ISO dates, offline, English and Chinese, read by chrono-node.
 *
 * Conventions (documented because every choice here is arguable):
 * - Everything is computed in UTC from the `now` argument only (never the clock), so it is pure.
 * - Weeks start on Monday (ISO 8601). "last week" / 上周 = the Monday-to-Sunday week before the
 *   current one, written "the week of <its Monday>"; weekends are written by their Saturday.
 * - Months are written YYYY-MM and years YYYY; single days YYYY-MM-DD.
 * - English weekdays are read as chrono reads them: "last Monday" = the most recent Monday before
 *   today, "next Monday" and "this Monday" = the coming one. Chinese 上周一 / 这周一 / 下周一 follow
 *   the calendar week instead (that is what they mean in Chinese).
 * - A bare weekday ("on Monday", 周一) is left alone when rewriting: past or future is a guess.
 *
 * chrono lacks a few Chinese periods (上周, 上个月, 去年, 两周前) and English ones ("a fortnight ago",
 * "the week before last"); they are added to it as parsers below, so one parse finds every date.
 */

import * as chrono from 'chrono-node';

export type ResolvedDate = { phrase: string; date: string };
/** A date said in a text: where, the day it starts (UTC midnight), and whether it lies ahead of `now`. */
export type DateSpan = { index: number; length: number; start: Date; future: boolean };

type Unit = 'day' | 'week' | 'weekend' | 'month' | 'year';
type Part = 'morning' | 'afternoon' | 'evening' | 'night';
/** A date phrase read: the unit it names and the UTC midnight that starts it; `part` for "last night", 昨晚. */
type Reading = { index: number; phrase: string; unit: Unit; start: Date; part?: Part; yearSaid: boolean; weekdayOnly: boolean };

const DAY_MS = 86_400_000;

export function absolutizeRelativeDates(text: string, now: Date): { text: string; resolved: ResolvedDate[] } {
  let out = '';
  let cursor = 0;
  const resolved: ResolvedDate[] = [];
  // A bare weekday is a guess, "a few weeks ago" a vague one; an absolute date is already absolute.
  const rewritten = readDates(text, now).filter(
    (r) => !r.weekdayOnly && !/\b(?:few|several)\b/iu.test(r.phrase) && RELATIVE.test(r.phrase.replace(TIME_OF_DAY_ZH, '')),
  );
  for (const r of rewritten) {
    const after = text.slice(r.index + r.phrase.length, r.index + r.phrase.length + 16);
    const han = /\p{Script=Han}/u.test(r.phrase);
    out +=
      text.slice(cursor, r.index) +
      (han ? chineseReplacement(r) : englishReplacement(r, text.slice(Math.max(0, r.index - 24), r.index), after));
    resolved.push({ phrase: r.phrase, date: label(r) });
    cursor = r.index + r.phrase.length;
  }
  return { text: out + text.slice(cursor), resolved };
}

/** Words that make a date relative to today; absolute dates ("May 3", 5月3日上午) carry none. */
const RELATIVE =
  /\b(?:yesterday|today|tomorrow|tonight|last|this|next|past|ago|from now|in \S+ (?:days?|weeks?|months?|years?|fortnights?))\b|[昨今明前后後去上下这這本]/iu;

/**
 * Every date a text states, relative or absolute, for fact extraction ("since May 2019", "last week", 上个月,
 * "for five years" in a perfect tense, 三年了). A date whose year is not said is the nearest one, or the last one
 * after "since" or in a statement about the past; a weekday alone, the last such day in a statement about the past.
 */
export function findDates(text: string, now: Date, recurring = recurringSpans(text)): DateSpan[] {
  const today = startOfUtcDay(now);
  const spans: DateSpan[] = [];
  // "Every Sunday", "on Tuesdays", 每周二: a day that comes round again is no date (`recurring`: where the text says so).
  const covers = (list: Span[], index: number) => list.some((s) => index >= s.index && index < s.index + s.length);
  const taken = (index: number) => covers(spans, index) || covers(recurring, index);
  const add = (span: DateSpan) => !taken(span.index) && spans.push(span);
  for (const rule of SPAN_RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      const start = rule.resolve(m, today, text);
      if (start) add({ index: m.index, length: m[0].length, start, future: start > today });
    }
  }
  for (const r of readDates(text, now)) {
    let { start } = r;
    const looksBack = PAST_TENSE.test(text) || /\bsince\s+$|自从?$/iu.test(text.slice(0, r.index));
    if (!r.yearSaid && start > today && looksBack)
      start = r.weekdayOnly ? addDays(start, -7) : new Date(Date.UTC(start.getUTCFullYear() - 1, start.getUTCMonth(), start.getUTCDate()));
    add({ index: r.index, length: r.phrase.length, start, future: start > today });
  }
  return spans.sort((a, b) => a.index - b.index);
}

const DAY_EN = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';
const PART_EN = '(?:morning|afternoon|evening|night)';
const UNIT_EN = `(?:day|week|weekend|weekday|month|year|${PART_EN}|${DAY_EN})`;
const DAY_ZH = '(?:天|日|晚|周[一二三四五六日天末]?|星期[一二三四五六日天]?|个?礼拜[一二三四五六日天]?|个?周末|个?月|年)';
/**
 * What says a thing comes round again: "every Sunday", "on Tuesdays", "Thursday evenings", "most mornings", "twice a
 * week", "usually"; 每周二晚上, 每个周末, 一般, 经常. A clause that says it tells a habit, and its days are no dates.
 */
const RECURRING = new RegExp(
  [
    `\\bevery (?:other |single )?${UNIT_EN}s?(?: ${PART_EN}s?)?\\b`,
    `\\b(?:on |at )?(?:the )?(?:${DAY_EN}|weekend|weekday)s(?: ${PART_EN}s)?\\b`,
    `\\b(?:(?:most|many|some) )?(?:${DAY_EN}|weekend|weekday) ${PART_EN}s\\b`,
    `\\b(?:most|many|some) (?:days|weeks|weekends|weekdays|${DAY_EN}s|${PART_EN}s)(?: ${PART_EN}s)?\\b`,
    `\\b(?:once|twice|three times|four times|\\d+ times) (?:a|an|per) (?:day|week|month|year|fortnight)\\b`,
    `\\bin the ${PART_EN}s\\b`,
    '\\b(?:daily|weekly|nightly|usually|often|regularly|normally|typically|generally)\\b',
    `每${DAY_ZH}(?:早上|上午|中午|下午|晚上|早晨|傍晚)?`,
    '一般(?![般的])|经常|常常|通常|平时|平常(?!心)',
  ].join('|'),
  'giu',
);

/**
 * Whether words say when (a date, a time that comes round again, a present-time word): a lead-in that does stays in
 * its clause ("last week I adopted a cat", "Every Sunday I …", 上周我领养了…, 现在我…).
 */
export const saysWhen = (lead: string, present: RegExp) =>
  findDates(lead, new Date(0)).length > 0 || recurringSpans(lead).length > 0 || new RegExp(present.source, 'iu').test(lead);

/** Where a text says a thing comes round again. */
type Span = { index: number; length: number };

export function recurringSpans(text: string): Span[] {
  return [...text.matchAll(RECURRING)].map((m) => ({ index: m.index, length: m[0].length }));
}

/** A statement about the past ("moved", "met", 搬了), with no word of the future: a date without its year is the last one. */
const PAST_TENSE =
  /^(?!.*\b(?:will|going to|next|plan|planning)\b|.*(?:要|会|将|打算|计划|准备))(?=.*(?:\b(?:\w{3,}ed|was|were|did|had|got|went|came|met|began|became|left|took|made|bought|found|sold|lost|won|gave|saw)\b|[了过]))/isu;

// ---------------------------------------------------------------------------------------------
// Reading with chrono

/** Every date phrase in the text, leftmost first; where an English and a Chinese reading overlap, the longer. */
function readDates(text: string, now: Date): Reading[] {
  const today = startOfUtcDay(now);
  const reference = { instant: now, timezone: 0 };
  const results = english.parse(text, reference);
  if (/\p{Script=Han}/u.test(text)) results.push(...chinese.parse(text, reference));
  results.sort((a, b) => a.index - b.index || b.text.length - a.text.length);
  const readings: Reading[] = [];
  let end = 0;
  for (const result of results) {
    const unit = result.index >= end ? unitOf(result) : null;
    if (!unit) continue;
    const read = reading(result, unit, today);
    // "sun", "wed" alone are words, not weekdays.
    if (read.weekdayOnly && !WEEKDAY_NAMED.test(read.phrase)) continue;
    readings.push(read);
    end = result.index + result.text.length;
  }
  return readings;
}

const WEEKDAY_NAMED = /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|(?:[周週]|星期|[礼禮]拜)[一二三四五六日天]/iu;
/** A time of day alone is no date: "at 12 Baker Street" is an address, 晚上 is any evening, "now" says what holds. */
const TIME_ONLY = /\b(?:hours?|minutes?|seconds?|now)\b|小时|分钟/iu;
const TIME_OF_DAY_ZH = /早上|上午|中午|下午|晚上|傍晚|凌晨|半夜|夜里/gu;

/** The unit a phrase names: "last week" is a week though chrono gives it a day; null for a time of day alone. */
function unitOf(result: chrono.ParsedResult): Unit | null {
  const { text, start } = result;
  if (TIME_ONLY.test(text) || !text.replace(TIME_OF_DAY_ZH, '')) return null;
  if (/weekend|[周週]末/iu.test(text)) return 'weekend';
  if (WEEKDAY_NAMED.test(text)) return 'day';
  if (/\b(?:weeks?|fortnights?)\b|[周週]|星期|[礼禮]拜/iu.test(text)) return 'week';
  if (/\bmonths?\b|[个個]月|[上下这這本]月/iu.test(text) || (start.isCertain('month') && !start.isCertain('day'))) return 'month';
  if (/\byears?\b|年[以之]?[前后]|[去今明前后]年/iu.test(text) || (start.isCertain('year') && !start.isCertain('month'))) return 'year';
  if (start.isCertain('day') || start.isCertain('weekday') || /\bthis\b/iu.test(text)) return 'day';
  return null;
}

/** A clock time: "at 5", "5pm", "9:15", "noon"; a number alone is a count ("4 years ago"). */
const CLOCK = String.raw`(?:at\s+\d{1,2}(?::\d{2})?(?:\s*(?:am|pm|o'?clock))?|(?:at\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|o'?clock)|\d{1,2}:\d{2}|noon|midnight))`;
const LEADING_EXTRA = new RegExp(String.raw`^(?:(?:about|around|roughly|almost|nearly|over|just)\s+|${CLOCK}\s+(?:on\s+)?)`, 'iu');
// Each run (of blanks, of digits, of punctuation) is tried from where it starts only ((?<!…)), not again from each of its characters.
const TRAILING_EXTRA = new RegExp(
  String.raw`(?:(?<!\s)\s+${CLOCK}|(?:早上|上午|中午|下午|晚上|傍晚|凌晨)?(?<![\d一二三四五六七八九十两])[\d一二三四五六七八九十两]+(?:[点點时時][半\d一二三四五六七八九十]*分?|[:：]\d{2}))?(?<![\s,.;:!?，。；：！？])[\s,.;:!?，。；：！？]*$`,
  'iu',
);

const PART_WORDS: [Part, RegExp][] = [
  ['night', /night|夜/iu],
  ['evening', /evening|晚/iu],
  ['morning', /morning|早/iu],
  ['afternoon', /afternoon|下午/iu],
];

function reading(result: chrono.ParsedResult, unit: Unit, today: Date): Reading {
  const { start, text } = result;
  const day = new Date(Date.UTC(start.get('year') ?? today.getUTCFullYear(), (start.get('month') ?? 1) - 1, start.get('day') ?? 1));
  const starts: Record<Unit, () => Date> = {
    day: () => day,
    // chrono's "this week" starts on Sunday; the week meant is today's.
    week: () => mondayOf(/\bthis\b/iu.test(text) ? today : day),
    weekend: () => addDays(mondayOf(day), 5),
    month: () => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1)),
    year: () => new Date(Date.UTC(day.getUTCFullYear(), 0, 1)),
  };
  // chrono takes in a hedge, a clock time and a comma ("about five years ago,", "5pm tomorrow", 明天下午三点): they stay in the text.
  const lead = LEADING_EXTRA.exec(text)?.[0].length ?? 0;
  const phrase = text.slice(lead).replace(TRAILING_EXTRA, '');
  const part = PART_WORDS.find(([, words]) => words.test(phrase))?.[0];
  return {
    index: result.index + lead,
    phrase,
    unit,
    start: starts[unit](),
    ...(part && unit === 'day' ? { part } : {}),
    yearSaid: start.isCertain('year'),
    weekdayOnly: start.isCertain('weekday') && !start.isCertain('day') && !/\b(?:last|next|this|past|coming)\b/iu.test(text),
  };
}

// ---------------------------------------------------------------------------------------------
// Date arithmetic (UTC)

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** The Monday of a date's week, `weekOffset` weeks on. */
function mondayOf(date: Date, weekOffset = 0): Date {
  return addDays(date, -((date.getUTCDay() + 6) % 7) + 7 * weekOffset);
}

const iso = (date: Date) => date.toISOString().slice(0, 10);
const components = (date: Date) => ({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });

function label(r: Pick<Reading, 'unit' | 'start'>): string {
  if (r.unit === 'week') return `the week of ${iso(r.start)}`;
  if (r.unit === 'weekend') return `the weekend of ${iso(r.start)}`;
  if (r.unit === 'month') return iso(r.start).slice(0, 7);
  if (r.unit === 'year') return iso(r.start).slice(0, 4);
  return iso(r.start);
}

// ---------------------------------------------------------------------------------------------
// Numbers and counting, by chrono: "five years" before today is what chrono reads "five years ago" as.

const EN_NUM = '(\\d{1,3}|a couple of|couple of|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)';
const ZH_NUM = '(\\d{1,3}|[一二两三四五六七八九十]{1,3})';

/** `ago` read by chrono from `now`: "3 weeks ago", "in 2 weeks" (English), 三个月前, 两个星期后 (Chinese); the UTC day it falls on. */
function counted(ago: string, now: Date, reader: chrono.Chrono = chrono.casual): Date | null {
  const date = reader.parseDate(ago, { instant: now, timezone: 0 });
  return date && startOfUtcDay(date);
}

// ---------------------------------------------------------------------------------------------
// What chrono lacks, as chrono parsers. Patterns are not global: chrono runs them on the rest of the text.

const refDay = (context: chrono.ParsingContext) => startOfUtcDay(context.refDate);
const monthsOn = (date: Date, n: number) => ({
  year: date.getUTCFullYear() + Math.floor((date.getUTCMonth() + n) / 12),
  month: ((((date.getUTCMonth() + n) % 12) + 12) % 12) + 1,
});

const english = chrono.casual.clone();
english.parsers.unshift(
  {
    // chrono dates "last night" by the hour it is said (after midnight, today); it is the evening before.
    pattern: () => /\blast night\b/i,
    extract: (context) => components(addDays(refDay(context), -1)),
  },
  {
    // chrono reads only "the week before" of "the week before last".
    pattern: () => /\bthe (week|month|year) before last\b/i,
    extract: (context, m) => components(counted(`2 ${m[1]}s ago`, context.refDate)!),
  },
  {
    pattern: () => /\b(?:a fortnight (ago|from now)|in a fortnight)\b/i,
    extract: (context, m) => components(counted(m[1] === 'ago' ? '2 weeks ago' : 'in 2 weeks', context.refDate)!),
  },
);

const ZH_OFFSET: Record<string, number> = { 上上: -2, 上: -1, 这: 0, 這: 0, 本: 0, 下: 1, 下下: 2 };
const ZH_WEEKDAY: Record<string, number> = { 一: 0, 二: 1, 三: 2, 四: 3, 五: 4, 六: 5, 日: 6, 天: 6 };
const ZH_YEAR: Record<string, number> = { 大前年: -3, 前年: -2, 去年: -1, 今年: 0, 明年: 1, 后年: 2 };
// 上/下 are everyday characters: "马上周末" is "soon, the weekend", "看一下周围" is "look around".
const ZH_NOT_AFTER = /[马晚早身手路桌楼脸网线世往以向之一底地乡两几]/u;

const chinese = chrono.zh.hans.casual.clone();
// chrono's 上周一 counts weeks from Sunday and takes 下周一起 ("together next week") for a Monday; replaced below.
// Traditional characters (上週, 昨天, 三月五日) are read by chrono's zh parsers beside.
// Chosen by class name, so chrono-node stays out of the server bundle (next.config.ts), where a minifier renames classes.
const named = (ending: string) => (parser: { constructor: { name: string } }) => parser.constructor.name.endsWith(ending);
const sundayWeeks = chinese.parsers.filter(named('RelationWeekdayParser'));
if (sundayWeeks.length === 0) throw new Error("chrono-node's Chinese relative-weekday parser was not found by its class name");
chinese.parsers = [...chinese.parsers, ...chrono.zh.casual.parsers.filter((parser) => parser.constructor.name.startsWith('ZHHant'))].filter(
  (parser) => !named('RelationWeekdayParser')(parser),
);
chinese.parsers.unshift(
  {
    // 上周, 下个月, 上周三, 这个星期天, 下周末; 下周一起 is next week + together.
    pattern: () =>
      /(上上|上|[这這]|本|下下|下)([个個]?(?:[周週](?![围边到全期年游转报刊])|星期|[礼禮]拜)|[个個]?月(?![亮光球饼色]))(末|[一二三四五六日天])?/u,
    extract: (context, m) => {
      if (m.index && ZH_NOT_AFTER.test(context.text[m.index - 1])) return null;
      const t = refDay(context);
      const offset = ZH_OFFSET[m[1]];
      if (m[2].endsWith('月')) return context.createParsingResult(m.index ?? 0, m[1] + m[2], monthsOn(t, offset));
      const monday = mondayOf(t, offset);
      const day = m[3] && context.text[(m.index ?? 0) + m[0].length] !== '起' ? m[3] : '';
      const date = day === '末' ? addDays(monday, 5) : day ? addDays(monday, ZH_WEEKDAY[day]) : monday;
      return context.createParsingResult(m.index ?? 0, m[1] + m[2] + day, components(date));
    },
  },
  {
    pattern: () => /(大前年|前年|去年|今年|明年|后年)(?![轻纪龄代])/u,
    extract: (context, m) => ({ year: refDay(context).getUTCFullYear() + ZH_YEAR[m[1]] }),
  },
  {
    // 两周前, 3周后, 前两周 ("the last two weeks back"), 前三天; chrono reads 三天前 and 两个星期前 itself.
    pattern: () => new RegExp(`前${ZH_NUM}(天|周|个星期|个礼拜)|${ZH_NUM}(周|礼拜)(?:以|之)?(前|后)`, 'u'),
    extract: (context, m) => {
      const unit = (m[2] ?? m[4]) === '天' ? '天' : '个星期';
      const date = counted(`${m[1] ?? m[3]}${unit}${m[5] ?? '前'}`, context.refDate, chrono.zh.hans.casual);
      return date && components(date);
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Replacement text

const PREPOSITION_BEFORE = /\b(on|since|until|till|from|by|before|after|of|during|through|to|for|in|at|as of|between|and)\s+$/iu;
const POSSESSIVE_OR_SUBJECT_AFTER = /^(['’]s\b|\s+(is|was|will be|has been)\b)/iu;

/** "on 2026-11-20", or the bare date after a preposition, as a possessive, or as a subject. */
function englishReplacement(r: Reading, before: string, after: string): string {
  const bare = PREPOSITION_BEFORE.test(before) || POSSESSIVE_OR_SUBJECT_AFTER.test(after);
  let phrase: string;
  if (r.part) phrase = `${bare ? '' : 'on '}the ${r.part} of ${iso(r.start)}`;
  else if (r.unit === 'day' || r.unit === 'weekend') phrase = bare ? label(r) : `on ${label(r)}`;
  else phrase = bare ? label(r) : `in ${label(r)}`;
  return /^[A-Z]/u.test(r.phrase) ? phrase[0].toUpperCase() + phrase.slice(1) : phrase;
}

const ZH_PART: Record<Part, string> = { morning: '早上', afternoon: '下午', evening: '晚上', night: '夜里' };

function chineseReplacement(r: Reading): string {
  if (r.unit === 'week') return `${iso(r.start)}那周`;
  if (r.unit === 'weekend') return `${iso(r.start)}那个周末`;
  if (r.unit === 'month') return label(r);
  if (r.unit === 'year') return `${label(r)}年`;
  return iso(r.start) + (r.part ? ZH_PART[r.part] : '');
}

// ---------------------------------------------------------------------------------------------
// Dates for fact extraction beyond what chrono reads

type SpanRule = { pattern: RegExp; resolve: (m: RegExpExecArray, today: Date, text: string) => Date | null };
/** How long something has held ("for 5 years" with have/has, 三年了) dates its start that long before today, to the day. */
const ZH_COUNTED: Record<string, string> = { 天: '天', 周: '个星期', 星期: '个星期', 月: '个月', 年: '年' };

/** Seasons by their meteorological start month (northern hemisphere): spring is March to May. */
const SEASON_MONTH: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

/** "last spring" = the latest one already over, "next winter" = the first one still to start, "this summer" = this year's. */
function seasonStart(today: Date, which: string, season: string): Date {
  const month = SEASON_MONTH[season];
  const starts = [-2, -1, 0, 1].map((offset) => new Date(Date.UTC(today.getUTCFullYear() + offset, month, 1)));
  const over = (start: Date) => new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 3, 1)) <= today;
  if (which === 'last') return starts.filter(over).at(-1)!;
  if (which === 'next') return starts.find((start) => start > today)!;
  return starts.find((start) => start <= today && !over(start)) ?? starts[2];
}

const SPAN_RULES: SpanRule[] = [
  {
    pattern: /\b(last|this|next) (spring|summer|autumn|fall|winter)\b/giu,
    resolve: (m, t) => seasonStart(t, m[1].toLowerCase(), m[2].toLowerCase()),
  },
  {
    pattern:
      /\b(?:since|in|from)\s+(?:early\s+|late\s+)?((?:19|20)\d{2})\b|((?:19|20)\d{2})年(?![\d一二三四五六七八九十]{1,2}月)(?:开始)?/giu,
    resolve: (m) => new Date(Date.UTC(Number(m[1] ?? m[2]), 0, 1)),
  },
  {
    pattern: new RegExp(
      `\\bfor (?:the (?:past|last) )?(?:over |about |almost |nearly |around )?${EN_NUM} (day|week|month|year)s?\\b`,
      'giu',
    ),
    resolve: (m, t, text) => (/\b(?:have|has|had|'ve|been)\b/i.test(text) ? counted(`${m[1]} ${m[2]}s ago`, t) : null),
  },
  {
    pattern: new RegExp(`${ZH_NUM}多?个?(天|周|星期|月|年)多?(?:了|来|以来)`, 'gu'),
    resolve: (m, t) => counted(`${m[1]}${ZH_COUNTED[m[2]]}前`, t, chrono.zh.hans.casual),
  },
];

/**
 * The calendar date a text opens with, as far as it is said: "May 3" → "05-03", "4 July 1990" → "1990-07-04",
 * 五月三号 → "05-03", "1990" → "1990" (birthdays and anniversaries recur, so an unsaid year stays unsaid).
 */
export function statedDate(text: string): string | null {
  const t = text.trim();
  const year = /^(?:in |on )?((?:19|20)\d{2})年?$/u.exec(t);
  if (year) return year[1];
  const reference = { instant: new Date(Date.UTC(2000, 0, 1)), timezone: 0 };
  const [found] = chrono.parse(t, reference).concat(chrono.zh.parse(t, reference));
  if (!found || found.index > 8 || !found.start.isCertain('month')) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  const { start } = found;
  return `${start.isCertain('year') ? `${start.get('year')}-` : ''}${pad(start.get('month')!)}${start.isCertain('day') ? `-${pad(start.get('day')!)}` : ''}`;
}
