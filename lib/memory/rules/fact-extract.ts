/**
 * Offline fact extraction: the user's message → self-disclosure fact candidates, English and Chinese.
 *
 * Per message: sentences → clauses (each language splits and strips its own lead-ins) → questions and requests
 * dropped → dates found (relative-dates.ts: validFrom, or a plan when the date lies ahead) and taken out → the
 * language's slot patterns. Only confident, typed facts come out: a clause no slot pattern claims is no fact (its
 * words stay findable in the conversation's episodes), and a clause whose subject is someone else ("my boss is …",
 * 我妈妈…) only tells who the user's people and pets are. Pure: the only clock is `now`, dates are UTC.
 */
import { STORY_SLOTS } from '@/lib/shared/fact-kinds';
import { english } from './en';
import { asksForMany as asksForManyEn, opensWithCommand } from './en/read';
import { asksWhatHappenedEn } from './en/tense';
import { type FactCandidate, type Found, isChinese, type Language, type Reading } from './fact-types';
import { findDates, recurringSpans } from './relative-dates';
import { chinese } from './zh';
import { asksForMany as asksForManyZh } from './zh/read';
import { asksWhatHappenedZh } from './zh/tense';

export function extractFactCandidates(text: string, now: Date): FactCandidate[] {
  const out: FactCandidate[] = [];
  for (const sentence of statementSentences(text)) {
    const language = isChinese(sentence) ? chinese : english;
    const greeted = GREETING.test(sentence);
    // The greeting itself says nothing: "Hey there, the name's Ada" reads as "the name's Ada".
    const said = greeted ? sentence.replace(GREETING_WORDS, '') || sentence : sentence;
    for (const clause of language.clauses(said)) {
      for (const candidate of extractClauseOrItsStart(language, clause, said, now, greeted)) {
        // The same fact twice in one message (a clause and its restatement): keep the later wording.
        const same = out.findIndex((c) => c.slot === candidate.slot && c.value === candidate.value && !c.negated === !candidate.negated);
        if (same >= 0) out.splice(same, 1);
        out.push(candidate);
      }
    }
  }
  return out;
}

/** A sentence that opens by greeting ("Hi, I'm Anna", 你好，我是…) introduces its speaker. */
const GREETING = /^(?:hi|hello|hey|greetings|good (?:morning|afternoon|evening)|nice to meet you|你好|您好|大家好|嗨|哈喽)\b/iu;
/** A greeting and the words up to its comma or exclamation mark ("Hey there, ", "你好！"). */
const GREETING_WORDS = new RegExp(`${GREETING.source}[^,，!！]{0,20}[,，!！]\\s*`, 'iu');

/**
 * Sentences that may state a fact: a question keeps only a statement before its tag ("I'm from Berlin, what about
 * you?"). "." splits only before a space or the end, so "St. Mary's" and "3.5" survive.
 */
function statementSentences(text: string): string[] {
  const guarded = text
    .replace(/\b(?:Dr|Mr|Mrs|Ms|St|Prof|Jr|Sr|vs|etc|e\.g|i\.e)\./gi, (m) => m.replace(/\./g, '\u0001'))
    .replace(/(\d)\.(\d)/g, '$1\u0001$2');
  const pieces = guarded.match(/(?<![^.!?…。！？；;\n])[^.!?…。！？；;\n]+(?:[.!?…。！？；;\n]+|$)/g) ?? [];
  return pieces.flatMap((piece) => {
    const restored = piece.replaceAll('\u0001', '.');
    const sentence = restored.replace(/(?<![.!?…。！？；;\n\s])[.!?…。！？；;\n\s]+$/u, '').trim();
    if (!/[?？]/.test(restored)) return sentence ? [sentence] : [];
    const comma = Math.max(sentence.lastIndexOf(','), sentence.lastIndexOf('，'));
    return comma > 0 ? [sentence.slice(0, comma)] : [];
  });
}

/**
 * A clause that states nothing as a whole may state it before its first comma, the rest going on about something
 * else (我对头孢过敏，上次输液起了一身疹子): that start is read on its own.
 */
function extractClauseOrItsStart(language: Language, clause: string, sentence: string, now: Date, greeted: boolean): FactCandidate[] {
  const whole = extractClause(language, clause, sentence, now, greeted);
  const comma = clause.search(/[，,]/u);
  return whole.length > 0 || comma <= 0 ? whole : extractClause(language, clause.slice(0, comma), sentence, now, greeted);
}

function extractClause(language: Language, clause: string, sentence: string, now: Date, greeted: boolean): FactCandidate[] {
  if (!clause || language.asks(clause)) return [];
  const raw = language.normalise(clause);
  const recurring = recurringSpans(raw);
  const dates = findDates(raw, now, recurring);
  const future = dates.some((d) => d.future);
  const past = dates.find((d) => !d.future);
  const validFrom = past && !future ? past.start.toISOString().slice(0, 10) : undefined;
  const reading = {
    s: withoutTimes(raw, [...dates, ...presentWords(language, raw, dates), ...recurring]),
    raw,
    future,
    recurring: recurring.length > 0,
    sentence: language.normalise(sentence),
  };
  return placedInTime(language, clause, reading, greeted)
    .filter((f) => f.value.length > 0 || f.negated)
    .map((f) => ({
      slot: f.slot,
      text: f.said ?? clause,
      value: f.value,
      ...(f.negated ? { negated: true } : {}),
      // A date fact carries its date in the value; validFrom is for facts that started at some point.
      ...(validFrom && f.slot !== 'date' ? { validFrom } : {}),
    }));
}

/**
 * The facts a clause states, placed in time by its tense and aspect. Read as said, a past-tense change ("I moved to",
 * 搬到了) tells the current state. A past state ("I lived in", "I used to work at", 我以前住在) finds nothing as said: it
 * is read again in the present and kept as past; so is an origin ("I grew up in", 老家在). A past fact replaces no current
 * one (fact-reconcile.ts); a date keeps its slot (a birthday is not over), and what never held is no past.
 */
function placedInTime(language: Language, clause: string, reading: Reading, greeted: boolean): Found[] {
  const said = language.match(clause, reading, greeted);
  if (said.length) return language.origin(reading) ? said.flatMap((f) => asPast(f, true)) : said;
  const present = language.pastAsPresent(reading);
  return present ? language.match(clause, { ...reading, s: present, raw: present }, greeted).flatMap((f) => asPast(f, false)) : [];
}

/** The user's story (homes, jobs, people, pets) is kept as past; a past habit or taste only ends the current one it names. */

function asPast(found: Found, origin: boolean): Found[] {
  if (found.slot === 'date') return [found];
  if (found.negated) return [];
  if (!STORY_SLOTS.has(found.slot)) return [{ ...found, negated: true }];
  const key = origin && found.slot === 'location' ? 'origin' : found.slot;
  return [{ slot: 'past', value: `${key}:${found.value}`, ...(found.said ? { said: found.said } : {}) }];
}

type Span = { index: number; length: number };

/** "these days", 现在: where they stand, outside the dates. */
function presentWords(language: Language, raw: string, dates: Span[]): Span[] {
  const inDate = (at: number) => dates.some((d) => at >= d.index && at < d.index + d.length);
  return [...raw.matchAll(language.present)].filter((m) => !inDate(m.index)).map((m) => ({ index: m.index, length: m[0].length }));
}

/** The clause with its time phrases (and a preposition left dangling before them) taken out: "Lisbon", not "Lisbon since 2019". */
function withoutTimes(text: string, times: Span[]): string {
  let rest = text;
  for (const { index, length } of [...times].sort((a, b) => b.index - a.index)) {
    const before = rest
      .slice(0, index)
      .replace(
        /(?<!\s)\s*\b(?:ever since|since|back in|in|on|from|by|as of|starting|beginning|effective|during|over|for)\s*$|[从自在于]$/iu,
        '',
      );
    // 今年初, 去年底, 从上周开始, "from May on": the part of the period goes with it.
    rest = `${before} ${rest.slice(index + length).replace(/^(?:初|底|起|以来|开始|\s+on(?:wards?)?\b)/iu, '')}`;
  }
  return rest
    .replace(/\s+/g, ' ')
    .replace(/(?<=\p{Script=Han})\s+|(?<!\s)\s+(?=\p{Script=Han})/gu, '')
    .replace(/(?<!\s)\s+([,，])/g, '$1')
    .replace(/^[\s,，]+/, '')
    .replace(/(?<![\s,，])[\s,，]+$/, '');
}

/** A clause as the slot patterns read it, lead-ins, dates and present-time words out (reconciliation compares "frames" of choices with it). */
export function readClause(clause: string): string {
  const language = isChinese(clause) ? chinese : english;
  const raw = language.normalise(language.clauses(clause)[0] ?? clause);
  const recurring = recurringSpans(raw);
  const dates = findDates(raw, new Date(0), recurring);
  return withoutTimes(raw, [...dates, ...presentWords(language, raw, dates), ...recurring]);
}

/** Whether a question asks for several things (a list, or two questions in one): the offline model then answers with each. */
export function asksForMany(question: string): boolean {
  return isChinese(question) ? asksForManyZh(question) : asksForManyEn(question);
}

/** Whether a question asks what happened, not what is planned: a plan then answers nothing ("Which cities have I been to?"). */
export function asksWhatHappened(question: string): boolean {
  return isChinese(question) ? asksWhatHappenedZh(question) : asksWhatHappenedEn(question);
}

/** Whether a message asks something, a question or a request, in any of its sentences: the offline model answers those. */
export function asksSomething(text: string): boolean {
  if (/[?？]/u.test(text)) return true;
  return text
    .split(/[.!…。！；;\n]+/u)
    .map((sentence) => sentence.trim())
    .some((sentence) => {
      if (sentence === '') return false;
      if (isChinese(sentence)) return chinese.clauses(sentence).some(chinese.asks);
      return opensWithCommand(sentence) || english.clauses(sentence).some(english.asks);
    });
}
