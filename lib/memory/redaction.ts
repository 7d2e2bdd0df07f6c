import { redactionsOf, withdrawnTexts } from '@/db/provenance';
import type { Message, MessageRedaction } from '@/db/schema';
import { contentFeatures } from '@/lib/text/text-features';
import { correctedBy, FORGOTTEN } from './redaction-marks';

export { correctedBy, FORGOTTEN, REDACTED } from './redaction-marks';

/**
 * How a reader sees a message's redacted parts:
 * - `memory` (episodes, summaries, the recent window and the question sent to the model): forgotten
 *   parts are gone, corrected parts carry the user's correction instead of the old words;
 * - `extraction` (mining facts): both are gone, since the corrected fact is already kept by hand.
 */
export type RedactionReader = 'memory' | 'extraction';

type Span = Pick<MessageRedaction, 'spanStart' | 'spanEnd' | 'kind' | 'replacement'>;

/**
 * Overlapping spans are read as one part: forgotten when any of them is (the user withdrew those
 * words, so a correction of some of them must not show the rest), else corrected, with each
 * replacement once.
 */
function applyRedactions(content: string, spans: Span[], reader: RedactionReader): string {
  const sorted = spans
    .map((s) => ({ ...s, spanStart: Math.max(0, s.spanStart), spanEnd: Math.min(content.length, s.spanEnd) }))
    .filter((s) => s.spanEnd > s.spanStart)
    .sort((a, b) => a.spanStart - b.spanStart);
  const parts: Array<{ start: number; end: number; forgotten: boolean; replacements: string[] }> = [];
  for (const span of sorted) {
    const last = parts.at(-1);
    const part =
      last && span.spanStart < last.end ? last : { start: span.spanStart, end: span.spanEnd, forgotten: false, replacements: [] };
    if (part !== last) parts.push(part);
    part.end = Math.max(part.end, span.spanEnd);
    if (span.kind === 'forgotten' || reader === 'extraction') part.forgotten = true;
    else if (!part.replacements.includes(span.replacement ?? '')) part.replacements.push(span.replacement ?? '');
  }
  let out = '';
  let at = 0;
  for (const part of parts) {
    out += content.slice(at, part.start) + (part.forgotten ? FORGOTTEN : correctedBy(part.replacements.join('; ')));
    at = part.end;
  }
  return out + content.slice(at);
}

/**
 * The messages as a reader must see them, their redactions applied. Replies are also read with
 * every text the user withdrew replaced wherever it appears: a reply may have quoted it before it
 * was withdrawn. Only the withdrawn texts
 * these replies hold are read. `spans`: the messages' own redactions when the caller has already
 * read them (`redactionsOf` for these ids), so they are not read twice.
 */
export async function readRedacted<T extends Pick<Message, 'id' | 'userId' | 'content' | 'role'>>(
  messages: T[],
  reader: RedactionReader,
  spans?: MessageRedaction[],
): Promise<T[]> {
  if (messages.length === 0) return messages;
  const userId = messages[0].userId;
  const own =
    spans ??
    (await redactionsOf(
      userId,
      messages.map((m) => m.id),
    ));
  const replies = messages.filter((m) => m.role === 'assistant').map((m) => m.content);
  const withdrawn = replies.length > 0 ? await withdrawnTexts(userId, replies) : [];
  if (own.length === 0 && withdrawn.length === 0) return messages;
  return messages.map((m) => {
    const found: Span[] = own.filter((s) => s.messageId === m.id);
    if (m.role === 'assistant') {
      for (const { original, kind, replacement } of withdrawn) {
        for (const hit of occurrences(m.content, original)) found.push({ spanStart: hit.start, spanEnd: hit.end, kind, replacement });
      }
    }
    return found.length === 0 ? m : { ...m, content: applyRedactions(m.content, found, reader) };
  });
}

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** The sentence around [start, end) in a text, trimmed: what a reply that quoted something loses with it. */
export function sentenceAround(text: string, start: number, end: number): { start: number; end: number } {
  let from = start;
  let to = end;
  for (const piece of sentences.segment(text)) {
    const pieceEnd = piece.index + piece.segment.length;
    if (pieceEnd > start && piece.index < end) {
      from = Math.min(from, piece.index);
      to = Math.max(to, pieceEnd);
    }
  }
  while (to > from && /\s/u.test(text[to - 1])) to--;
  return { start: from, end: to };
}

/** The sentences of a text worth finding again (long enough to be a statement, not "Hi."). */
export function sentencesOf(text: string): string[] {
  return [...sentences.segment(text)]
    .map((piece) => piece.segment.trim().replace(/(?<![.!?。！？])[.!?。！？]+$/u, ''))
    .filter((t) => t.length >= 6);
}

/** Every occurrence of a needle in a text, case-insensitively. */
export function occurrences(text: string, needle: string): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  const trimmed = needle.trim();
  if (trimmed.length < 2) return found;
  const haystack = text.toLowerCase();
  const target = trimmed.toLowerCase();
  for (let at = haystack.indexOf(target); at !== -1; at = haystack.indexOf(target, at + target.length)) {
    found.push({ start: at, end: at + target.length });
  }
  return found;
}

/**
 * Where in a message a statement was made: the statement itself when the message holds it word for
 * word, else the sentence that shares the most words with it, else the whole message.
 */
export function locateStatement(message: string, statement: string): { spanStart: number; spanEnd: number } {
  const exact = occurrences(message, statement)[0];
  if (exact) return { spanStart: exact.start, spanEnd: exact.end };
  const wanted = new Set(contentFeatures(statement));
  let best = { spanStart: 0, spanEnd: message.length, score: 0 };
  for (const piece of sentences.segment(message)) {
    const score = contentFeatures(piece.segment).filter((f) => wanted.has(f)).length;
    if (score > best.score) {
      const { start, end } = sentenceAround(message, piece.index, piece.index + piece.segment.length);
      best = { spanStart: start, spanEnd: end, score };
    }
  }
  return { spanStart: best.spanStart, spanEnd: best.spanEnd };
}
