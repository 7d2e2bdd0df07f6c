/**
 * Relative dates → absolute ISO dates, offline, English and Chinese.
 *
 * Conventions (documented because every choice here is arguable):
 * - Everything is computed in UTC from the `now` argument only (never the clock), so it is pure.
 * - Weeks start on Monday (ISO 8601). "last week" / 上周 = the Monday-to-Sunday week before the
 *   current one, written "the week of <its Monday>"; weekends are written by their Saturday.
 * - Months are written YYYY-MM and years YYYY; single days YYYY-MM-DD.
 * - English "last Monday" = the most recent Monday strictly before today, "next Monday" = the first
 *   Monday strictly after today, "this Monday" = the Monday of the current week. Chinese 上周一 /
 *   这周一 / 下周一 follow the calendar week instead (that is what they mean in Chinese).
 * - A bare weekday ("on Monday", 周一) is left alone: past or future is a guess.
 *
 * English phrases are replaced by a phrase that still reads ("yesterday" → "on 2026-11-20", "last week"
 * → "in the week of 2026-11-09"); after a preposition ("since yesterday") or as a possessive only the
 * date is written. Chinese phrases are replaced by the date ("上周" → "2026-11-09那周").
 */

import * as chrono from 'chrono-node';
import { EN_NUMBERS } from './en/numbers';

export type ResolvedDate = { phrase: string; date: string };
/** A date said in a text: where, the day it starts (UTC midnight), and whether it lies ahead of `now`. */
export type DateSpan = { index: number; length: number; start: Date; future: boolean };

type Unit = 'day' | 'week' | 'weekend' | 'month' | 'year';
/** A resolved phrase: the unit and the UTC midnight that starts it; `part` for "last night", 昨晚. */
type Resolution = { unit: Unit; start: Date; part?: 'morning' | 'afternoon' | 'evening' | 'night' };
type Rule = { pattern: RegExp; lang: 'en' | 'zh'; resolve: (m: RegExpExecArray, today: Date) => Resolution | null };
type Hit = { index: number; length: number; phrase: string; lang: 'en' | 'zh'; resolution: Resolution };

const DAY_MS = 86_400_000;

export function absolutizeRelativeDates(text: string, now: Date): { text: string; resolved: ResolvedDate[] } {
  const today = startOfUtcDay(now);
  const hits = findHits(text, today);
  let out = '';
  let cursor = 0;
  const resolved: ResolvedDate[] = [];
  for (const hit of hits) {
    const before = text.slice(cursor, hit.index);
    const after = text.slice(hit.index + hit.length, hit.index + hit.length + 16);
    out +=
      before +
      (hit.lang === 'en'
        ? englishReplacement(hit, text.slice(Math.max(0, hit.index - 24), hit.index), after)
        : chineseReplacement(hit.resolution));
    resolved.push({ phrase: hit.phrase, date: label(hit.resolution) });
    cursor = hit.index + hit.length;
  }
  return { text: out + text.slice(cursor), resolved };
}

/**
 * Every date a text states, relative or absolute, for fact extraction ("since May 2019", "last week", 上个月,
 * "for five years" in a perfect tense, 三年了). Relative phrases follow the conventions above; absolute English
 * and Chinese dates come from chrono-node; a date whose year is not said is the nearest one, or the last one
 * after "since" or in a statement about the past.
 */
export function findDates(text: string, now: Date): DateSpan[] {
  const today = startOfUtcDay(now);
  const spans: DateSpan[] = findHits(text, today).map((hit) => ({
    index: hit.index,
    length: hit.length,
    start: hit.resolution.start,
    future: hit.resolution.start > today,
  }));
  const taken = (index: number) => spans.some((s) => index >= s.index && index < s.index + s.length);
  const add = (span: DateSpan) => !taken(span.index) && spans.push(span);
  for (const rule of SPAN_RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      const start = rule.resolve(m, today, text);
      if (start) add({ index: m.index, length: m[0].length, start, future: start > today });
    }
  }
  for (const result of [...chrono.parse(text, { instant: now, timezone: 0 }), ...chrono.zh.parse(text, { instant: now, timezone: 0 })]) {
    const { start } = result;
    if (/^(?:right )?now$/i.test(result.text)) continue; // "I'm vegan now" says what holds, not since when
    // A time of day alone is no date: "at 12 Baker Street" is an address.
    if (!['day', 'weekday', 'month', 'year'].some((part) => start.isCertain(part as 'day'))) continue;
    let date = new Date(Date.UTC(start.get('year') ?? today.getUTCFullYear(), (start.get('month') ?? 1) - 1, start.get('day') ?? 1));
    const looksBack = PAST_TENSE.test(text) || /\bsince\s+$|自从?$/iu.test(text.slice(0, result.index));
    if (!start.isCertain('year') && date > today && looksBack)
      date = new Date(Date.UTC(date.getUTCFullYear() - 1, date.getUTCMonth(), date.getUTCDate()));
    add({ index: result.index, length: result.text.length, start: date, future: date > today });
  }
  return spans.sort((a, b) => a.index - b.index);
}

/** A statement about the past ("moved", "met", 搬了), with no word of the future: a date without its year is the last one. */
const PAST_TENSE =
  /^(?!.*\b(?:will|going to|next|plan|planning)\b|.*(?:要|会|将|打算|计划|准备))(?=.*(?:\b(?:\w{3,}ed|was|were|did|had|got|went|came|met|began|became|left|took|made|bought|found|sold|lost|won|gave|saw)\b|[了过]))/isu;

// ---------------------------------------------------------------------------------------------
// Date arithmetic (UTC)

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** Monday = 0 … Sunday = 6. */
function weekdayIndex(date: Date): number {
  return (date.getUTCDay() + 6) % 7;
}

function mondayOf(date: Date, weekOffset = 0): Date {
  return addDays(date, -weekdayIndex(date) + 7 * weekOffset);
}

function monthStart(date: Date, offset: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
}

function yearStart(date: Date, offset: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear() + offset, 0, 1));
}

/** Resolves "N units ago" (negative n) or "in N units" (positive n). */
function shift(today: Date, unit: Unit, n: number): Resolution {
  if (unit === 'week') return { unit, start: mondayOf(today, n) };
  if (unit === 'month') return { unit, start: monthStart(today, n) };
  if (unit === 'year') return { unit, start: yearStart(today, n) };
  return { unit: 'day', start: addDays(today, n) };
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

function label(r: Resolution): string {
  if (r.unit === 'week') return `the week of ${iso(r.start)}`;
  if (r.unit === 'weekend') return `the weekend of ${iso(r.start)}`;
  if (r.unit === 'month') return iso(r.start).slice(0, 7);
  if (r.unit === 'year') return iso(r.start).slice(0, 4);
  return iso(r.start);
}

// ---------------------------------------------------------------------------------------------
// Numbers

const EN_NUM = '(\\d{1,3}|a couple of|couple of|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)';

function parseEnglishNumber(s: string): number | null {
  const key = s.toLowerCase();
  if (/^\d+$/.test(key)) return Number(key);
  return EN_NUMBERS[key] ?? null;
}

const ZH_DIGITS: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const ZH_NUM = '(\\d{1,3}|[一二两三四五六七八九十]{1,3})';

/** 三 → 3, 十 → 10, 十五 → 15, 二十 → 20, 二十一 → 21, digits as digits. */
function parseChineseNumber(s: string): number | null {
  if (/^\d+$/.test(s)) return Number(s);
  if (s in ZH_DIGITS) return ZH_DIGITS[s];
  const m = /^([一二两三四五六七八九])?十([一二三四五六七八九])?$/u.exec(s);
  if (!m) return null;
  return (m[1] ? ZH_DIGITS[m[1]] : 1) * 10 + (m[2] ? ZH_DIGITS[m[2]] : 0);
}

// ---------------------------------------------------------------------------------------------
// Rules. All matches of all rules are collected; overlaps go to the leftmost, then the longest.

const WEEKDAYS_EN = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const ZH_WEEKDAY: Record<string, number> = { 一: 0, 二: 1, 三: 2, 四: 3, 五: 4, 六: 5, 日: 6, 天: 6 };
const EN_UNIT: Record<string, Unit> = { day: 'day', week: 'week', month: 'month', year: 'year' };
const ZH_UNIT: Record<string, Unit> = {
  天: 'day',
  日: 'day',
  周: 'week',
  星期: 'week',
  个星期: 'week',
  礼拜: 'week',
  个礼拜: 'week',
  个月: 'month',
  年: 'year',
};
const ZH_RELATIVE: Record<string, number> = { 上上: -2, 上: -1, 这: 0, 本: 0, 下: 1, 下下: 2 };
const EN_RELATIVE: Record<string, number> = { last: -1, this: 0, next: 1 };

// 上/下 are everyday characters: "马上周末" is "soon, the weekend", "看一下周围" is "look around".
const ZH_NOT_AFTER = '(?<![马晚早身手路桌楼脸网线世往以向之一底地乡两几])';

const RULES: Rule[] = [
  // English
  { lang: 'en', pattern: /\bthe day before yesterday\b/giu, resolve: (_, t) => shift(t, 'day', -2) },
  { lang: 'en', pattern: /\bthe day after tomorrow\b/giu, resolve: (_, t) => shift(t, 'day', 2) },
  {
    lang: 'en',
    pattern: /\b(yesterday|today|tomorrow|tonight|last night)(?:\s+(morning|afternoon|evening|night))?\b/giu,
    resolve: (m, t) => {
      const word = m[1].toLowerCase();
      const offset = word === 'yesterday' || word === 'last night' ? -1 : word === 'tomorrow' ? 1 : 0;
      const part = (m[2]?.toLowerCase() ?? (word === 'tonight' || word === 'last night' ? 'night' : undefined)) as Resolution['part'];
      return { unit: 'day', start: addDays(t, offset), part };
    },
  },
  {
    lang: 'en',
    pattern: /\bthis (morning|afternoon|evening)\b/giu,
    resolve: (m, t) => ({ unit: 'day', start: t, part: m[1].toLowerCase() as Resolution['part'] }),
  },
  {
    lang: 'en',
    pattern: new RegExp(`\\b${EN_NUM} (day|week|month|year)s? ago\\b`, 'giu'),
    resolve: (m, t) => withNumber(parseEnglishNumber(m[1]), (n) => shift(t, EN_UNIT[m[2].toLowerCase()], -n)),
  },
  {
    lang: 'en',
    pattern: new RegExp(`\\bin ${EN_NUM} (day|week|month|year)s?\\b`, 'giu'),
    resolve: (m, t) => withNumber(parseEnglishNumber(m[1]), (n) => shift(t, EN_UNIT[m[2].toLowerCase()], n)),
  },
  {
    lang: 'en',
    pattern: new RegExp(`\\b${EN_NUM} (day|week|month|year)s? from now\\b`, 'giu'),
    resolve: (m, t) => withNumber(parseEnglishNumber(m[1]), (n) => shift(t, EN_UNIT[m[2].toLowerCase()], n)),
  },
  { lang: 'en', pattern: /\bthe (week|month|year) before last\b/giu, resolve: (m, t) => shift(t, EN_UNIT[m[1].toLowerCase()], -2) },
  {
    lang: 'en',
    pattern: /\b(last|this|next) (weekend|week|month|year)\b/giu,
    resolve: (m, t) => {
      const offset = EN_RELATIVE[m[1].toLowerCase()];
      const unit = m[2].toLowerCase();
      if (unit === 'weekend') return { unit: 'weekend', start: addDays(mondayOf(t, offset), 5) };
      return shift(t, EN_UNIT[unit], offset);
    },
  },
  {
    lang: 'en',
    pattern: /\b(last|this|next) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/giu,
    resolve: (m, t) => ({ unit: 'day', start: englishWeekday(t, m[1].toLowerCase(), WEEKDAYS_EN.indexOf(m[2].toLowerCase())) }),
  },

  // Chinese
  { lang: 'zh', pattern: /大前天/gu, resolve: (_, t) => shift(t, 'day', -3) },
  { lang: 'zh', pattern: /大后天/gu, resolve: (_, t) => shift(t, 'day', 3) },
  {
    lang: 'zh',
    pattern: /(前天|昨天|昨日|今天|今日|明天|明日|后天)/gu,
    resolve: (m, t) => shift(t, 'day', { 前天: -2, 昨天: -1, 昨日: -1, 今天: 0, 今日: 0, 明天: 1, 明日: 1, 后天: 2 }[m[1]] ?? 0),
  },
  {
    lang: 'zh',
    pattern: /(昨|今|明)(晚|早|夜)/gu,
    resolve: (m, t) => ({
      unit: 'day',
      start: addDays(t, { 昨: -1, 今: 0, 明: 1 }[m[1]] ?? 0),
      part: m[2] === '早' ? 'morning' : m[2] === '晚' ? 'evening' : 'night',
    }),
  },
  {
    // 上周三, 这个星期天, 下周末. 下周一起 is "together next week", not "next Monday".
    lang: 'zh',
    pattern: new RegExp(`${ZH_NOT_AFTER}(上上|上|这|本|下下|下)个?(周|星期|礼拜)(末|[一二三四五六日天](?!起))`, 'gu'),
    resolve: (m, t) => {
      const monday = mondayOf(t, ZH_RELATIVE[m[1]]);
      if (m[3] === '末') return { unit: 'weekend', start: addDays(monday, 5) };
      return { unit: 'day', start: addDays(monday, ZH_WEEKDAY[m[3]]) };
    },
  },
  {
    lang: 'zh',
    pattern: new RegExp(`${ZH_NOT_AFTER}(上上|上|这|本|下下|下)(?:个)?(?:周(?![围边到全期年游转报刊])|星期|礼拜)`, 'gu'),
    resolve: (m, t) => shift(t, 'week', ZH_RELATIVE[m[1]]),
  },
  {
    lang: 'zh',
    pattern: new RegExp(`${ZH_NOT_AFTER}(上上|上|这|本|下下|下)个?月(?![亮光球饼色])`, 'gu'),
    resolve: (m, t) => shift(t, 'month', ZH_RELATIVE[m[1]]),
  },
  {
    lang: 'zh',
    pattern: /(大前年|前年|去年|今年|明年|后年)(?![轻纪龄代])/gu,
    resolve: (m, t) => shift(t, 'year', { 大前年: -3, 前年: -2, 去年: -1, 今年: 0, 明年: 1, 后年: 2 }[m[1]] ?? 0),
  },
  {
    lang: 'zh',
    pattern: new RegExp(`${ZH_NUM}(天|日|个星期|星期|个礼拜|礼拜|周|个月|年)(?:以|之)?(前|后)`, 'gu'),
    resolve: (m, t) => withNumber(parseChineseNumber(m[1]), (n) => shift(t, ZH_UNIT[m[2]], m[3] === '前' ? -n : n)),
  },
];

function withNumber(n: number | null, then: (n: number) => Resolution): Resolution | null {
  return n === null ? null : then(n);
}

function englishWeekday(today: Date, which: string, target: number): Date {
  const current = weekdayIndex(today);
  if (which === 'this') return addDays(mondayOf(today), target);
  if (which === 'last') return addDays(today, -((current - target + 7) % 7 || 7));
  return addDays(today, (target - current + 7) % 7 || 7);
}

function findHits(text: string, today: Date): Hit[] {
  const all: Hit[] = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      const resolution = rule.resolve(m, today);
      if (resolution) all.push({ index: m.index, length: m[0].length, phrase: m[0], lang: rule.lang, resolution });
    }
  }
  all.sort((a, b) => a.index - b.index || b.length - a.length);
  const kept: Hit[] = [];
  let end = 0;
  for (const hit of all) {
    if (hit.index < end) continue;
    kept.push(hit);
    end = hit.index + hit.length;
  }
  return kept;
}

// ---------------------------------------------------------------------------------------------
// Replacement text

const PREPOSITION_BEFORE = /\b(on|since|until|till|from|by|before|after|of|during|through|to|for|in|at|as of|between|and)\s+$/iu;
const POSSESSIVE_OR_SUBJECT_AFTER = /^(['’]s\b|\s+(is|was|will be|has been)\b)/iu;

/** "on 2026-11-20", or the bare date after a preposition, as a possessive, or as a subject. */
function englishReplacement(hit: Hit, before: string, after: string): string {
  const r = hit.resolution;
  const bare = PREPOSITION_BEFORE.test(before) || POSSESSIVE_OR_SUBJECT_AFTER.test(after);
  let phrase: string;
  if (r.part) phrase = `${bare ? '' : 'on '}the ${r.part} of ${iso(r.start)}`;
  else if (r.unit === 'day') phrase = bare ? iso(r.start) : `on ${iso(r.start)}`;
  else if (r.unit === 'weekend') phrase = bare ? label(r) : `on ${label(r)}`;
  else phrase = bare ? label(r) : `in ${label(r)}`;
  return /^[A-Z]/u.test(hit.phrase) ? phrase[0].toUpperCase() + phrase.slice(1) : phrase;
}

const ZH_PART: Record<NonNullable<Resolution['part']>, string> = { morning: '早上', afternoon: '下午', evening: '晚上', night: '夜里' };

function chineseReplacement(r: Resolution): string {
  if (r.unit === 'week') return `${iso(r.start)}那周`;
  if (r.unit === 'weekend') return `${iso(r.start)}那个周末`;
  if (r.unit === 'month') return label(r);
  if (r.unit === 'year') return `${label(r)}年`;
  return iso(r.start) + (r.part ? ZH_PART[r.part] : '');
}

// ---------------------------------------------------------------------------------------------
// Dates for fact extraction beyond the relative phrases

type SpanRule = { pattern: RegExp; resolve: (m: RegExpExecArray, today: Date, text: string) => Date | null };

/** How long something has been true ("for 5 years" with have/has, 三年了) dates its start back from today, to the day. */
function durationStart(today: Date, n: number | null, unit: Unit): Date | null {
  if (n === null) return null;
  if (unit === 'day') return addDays(today, -n);
  if (unit === 'week') return addDays(today, -7 * n);
  const months = unit === 'year' ? 12 * n : n;
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - months, today.getUTCDate()));
}

/** Seasons by their meteorological start month (northern hemisphere): spring is March to May. */
const SEASON_MONTH: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

/** "last spring" = the latest one already over, "next winter" = the first one still to start, "this summer" = this year's. */
function seasonStart(today: Date, which: string, season: string): Date {
  const month = SEASON_MONTH[season];
  const starts = [-2, -1, 0, 1].map((offset) => new Date(Date.UTC(today.getUTCFullYear() + offset, month, 1)));
  const over = (start: Date) => monthStart(start, 3) <= today;
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
    pattern: /\b(?:since|in|from)\s+(?:early\s+|late\s+)?((?:19|20)\d{2})\b|((?:19|20)\d{2})年(?:开始)?/giu,
    resolve: (m) => new Date(Date.UTC(Number(m[1] ?? m[2]), 0, 1)),
  },
  {
    pattern: new RegExp(
      `\\bfor (?:the (?:past|last) )?(?:over |about |almost |nearly |around )?${EN_NUM} (day|week|month|year)s?\\b`,
      'giu',
    ),
    resolve: (m, t, text) =>
      /\b(?:have|has|had|'ve|been)\b/i.test(text) ? durationStart(t, parseEnglishNumber(m[1]), EN_UNIT[m[2].toLowerCase()]) : null,
  },
  {
    pattern: new RegExp(`${ZH_NUM}多?个?(天|周|星期|月|年)多?(?:了|来|以来)`, 'gu'),
    resolve: (m, t) => durationStart(t, parseChineseNumber(m[1]), ZH_UNIT[m[2]] ?? ZH_UNIT[`个${m[2]}`]),
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
