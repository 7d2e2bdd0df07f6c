import * as chrono from 'chrono-node';
import { forRules } from '../rules/bounded';

/** What a question says about time: a period it asks about, and whether it wants the earliest or the latest. */
export type TimeQuestion = {
  /** The days the question names ("in May 2023", "on 19 August", "2025年3月"), widened by TOLD_LATER_DAYS after. */
  period: { from: Date; to: Date; phrase: string } | null;
  order: 'earliest' | 'latest' | null;
};

/** Things are often told some days after they happened ("last weekend I…"): a period also covers what was said this long after it. */
const TOLD_LATER_DAYS = 14;
const DAY_MS = 86_400_000;

/** Words that ask for the first or the last of several occurrences, English and Chinese. */
const EARLIEST = /\b(first|earliest)\b|第一次|第一回|最早|头一次/iu;
const LATEST = /\b(last|latest|most recent(ly)?)\b|最后一次|上一次|上次|最近一次|最新/iu;

/**
 * Reads the time in a question with chrono (English and Chinese dates, absolute or relative to
 * `now`). A named day is that day; a named month without a day, that month. "last week" and other
 * relative phrases have already been written as dates by the retrieval rewrite, when it ran.
 */
export function readTimeQuestion(query: string, now: Date): TimeQuestion {
  // chrono's Chinese patterns backtrack polynomially on runs of blanks (6,000 ideographic spaces held
  // the event loop for 155 s): it reads the question as the rules do, blanks collapsed and bounded.
  const text = forRules(query);
  const found = chrono.parse(text, now)[0] ?? chrono.zh.parse(text, now)[0];
  const order = EARLIEST.test(query) ? 'earliest' : LATEST.test(query) ? 'latest' : null;
  if (!found) return { period: null, order };
  const start = found.start;
  const year = start.get('year') ?? now.getUTCFullYear();
  const month = (start.get('month') ?? 1) - 1;
  const wholeMonth = !start.isCertain('day');
  const from = new Date(Date.UTC(year, month, wholeMonth ? 1 : (start.get('day') ?? 1)));
  const end = found.end ? found.end.date() : wholeMonth ? new Date(Date.UTC(year, month + 1, 1)) : new Date(from.getTime() + DAY_MS);
  return { period: { from, to: new Date(end.getTime() + TOLD_LATER_DAYS * DAY_MS), phrase: found.text }, order };
}
