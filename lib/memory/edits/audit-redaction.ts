import {
  type CitationKey,
  citationsQuoting,
  replaceCitationItems,
  replaceCitationRuns,
  replaceTurnRecord,
  type TurnRecordKey,
  turnRecordsQuoting,
} from '@/db/turns';
import type { Actor } from '@/lib/audit';
import { REDACTED } from '../redaction';

/**
 * Turn records are immutable snapshots of what was sent. A memory deletion does not delete them:
 * it replaces the deleted text inside them with a marker and notes who redacted what and when;
 * items, tokens, decisions and citations stay as they were.
 */
export type Redaction = { texts: string[]; keys: string[] };
export type RedactionNote = { at: string; by: string; reason: string };

/** Who redacts, why, and now. */
export const redactionNote = (actor: Actor, reason: string): RedactionNote => ({ at: new Date().toISOString(), by: actor.label, reason });

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Replaces the texts (longest first, case-insensitively) in every string of a JSON value. */
function scrub(value: Json, texts: string[]): Json {
  if (typeof value === 'string') return texts.reduce((out, text) => replaceAll(out, text), value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, texts));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, texts)]));
  return value;
}

function replaceAll(haystack: string, needle: string): string {
  if (needle.length < 2) return haystack;
  const lower = haystack.toLowerCase();
  const target = needle.toLowerCase();
  let out = '';
  let at = 0;
  for (let i = lower.indexOf(target); i !== -1; i = lower.indexOf(target, i + target.length)) {
    out += haystack.slice(at, i) + REDACTED;
    at = i + target.length;
  }
  return out + haystack.slice(at);
}

/**
 * A rewritten query copies words from the window or memory next to the question ("And how old is
 * it? (dog, Biscuit)"): each word it added that a redacted text holds is redacted too. Words of the
 * question itself are the user's and stay.
 */
function scrubRewrite(query: string, question: string, texts: string[]): string {
  const asked = question.toLowerCase();
  const lowered = texts.map((t) => t.toLowerCase());
  const copied = [...new Set(query.split(/[\s\p{P}\p{S}]+/u))].filter((word) => {
    const w = word.toLowerCase();
    return word.length >= 2 && !asked.includes(w) && lowered.some((text) => text.includes(w));
  });
  return scrub(
    query,
    copied.sort((a, b) => b.length - a.length),
  ) as string;
}

/** The record's rewritten queries (the turn's, and each retrieval run's) with copied words redacted. */
function scrubRewrites(record: Record<string, unknown>, texts: string[]): Record<string, unknown> {
  const question = (record.question as { text?: unknown } | undefined)?.text;
  if (typeof question !== 'string' || texts.length === 0) return record;
  const fix = (query: unknown) => (typeof query === 'string' ? scrubRewrite(query, question, texts) : query);
  const retrieval = record.retrieval as Record<string, unknown> | undefined;
  const runs = Array.isArray(record.runs) ? (record.runs as Array<Record<string, unknown>>) : undefined;
  return {
    ...record,
    ...(retrieval ? { retrieval: { ...retrieval, query: fix(retrieval.query) } } : {}),
    ...(runs ? { runs: runs.map((run) => ({ ...run, query: fix(run.query) })) } : {}),
  };
}

/** One record with the texts redacted and the items of the keys marked; null when nothing in it changed. */
function redactRecord(record: Record<string, unknown>, redaction: Redaction, note: RedactionNote): Record<string, unknown> | null {
  const texts = [...new Set(redaction.texts.map((t) => t.trim()).filter((t) => t.length >= 2))].sort((a, b) => b.length - a.length);
  const keys = new Set(redaction.keys);
  const scrubbed = scrubRewrites(scrub(record as Json, texts) as Record<string, unknown>, texts);
  const before = JSON.stringify(record);
  const recalled = Array.isArray(scrubbed.recalled) ? (scrubbed.recalled as Array<Record<string, unknown>>) : [];
  const original = Array.isArray(record.recalled) ? (record.recalled as Array<Record<string, unknown>>) : [];
  let marked = 0;
  scrubbed.recalled = recalled.map((item, i) => {
    const changed = keys.has(item.key as string) || JSON.stringify(item) !== JSON.stringify(original[i]);
    if (!changed) return item;
    marked++;
    return { ...item, text: keys.has(item.key as string) ? REDACTED : item.text, redacted: note };
  });
  if (marked === 0 && JSON.stringify(scrubbed) === before) return null;
  const history = Array.isArray(record.redactions) ? record.redactions : [];
  return { ...scrubbed, redactions: [...history, { ...note, items: marked }] };
}

/** How many turn records (or citation rows) are read at a time while redacting: memory stays bounded however many turns a user has. */
export const AUDIT_PAGE_SIZE = 200;

/**
 * Redacts the user's turn records and citations. `pick` says, per record, what to redact (for
 * "forget everything", every memory item the record itself holds); `needles` finds the records.
 * Records and citations are read in keyset pages of `pageSize`, each page redacted before the next
 * is read. Returns how many records changed.
 */
export async function redactAuditTrail(
  userId: string,
  find: { needles: string[]; keys: string[]; all?: boolean },
  pick: (record: Record<string, unknown>) => Redaction,
  note: RedactionNote,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<number> {
  let changed = 0;
  const needles = [...find.needles, ...find.keys.map((k) => `"${k}"`)];
  let record: TurnRecordKey | undefined;
  do {
    const page = await turnRecordsQuoting(userId, needles, { all: find.all, after: record, limit: pageSize });
    for (const row of page) {
      const redacted = redactRecord(row.record, pick(row.record), note);
      if (!redacted) continue;
      await replaceTurnRecord(userId, row.assistantMessageId, row.attempt, redacted);
      // The citation row keeps a copy of the record's retrieval runs (their queries may have copied the text).
      if (typeof redacted.requestId === 'string' && Array.isArray(redacted.runs))
        await replaceCitationRuns({ userId, assistantMessageId: row.assistantMessageId, requestId: redacted.requestId }, redacted.runs);
      changed++;
    }
    record = page.length === pageSize ? keyOf(page[page.length - 1]) : undefined;
  } while (record);
  let citation: CitationKey | undefined;
  do {
    const page = await citationsQuoting(userId, find.needles, find.keys, { all: find.all, after: citation, limit: pageSize });
    for (const row of page) {
      const items = row.items as Array<Record<string, unknown>>;
      const redaction = pick({ recalled: items });
      const keys = new Set(redaction.keys);
      const texts = redaction.texts;
      const scrubbed = items.map((item) => {
        const next = scrub(item as Json, texts) as Record<string, unknown>;
        return keys.has(item.key as string) ? { ...next, text: REDACTED, redacted: note } : next;
      });
      if (JSON.stringify(scrubbed) !== JSON.stringify(items)) await replaceCitationItems(row, scrubbed);
    }
    citation = page.length === pageSize ? citationKeyOf(page[page.length - 1]) : undefined;
  } while (citation);
  return changed;
}

const keyOf = ({ assistantMessageId, attempt }: TurnRecordKey): TurnRecordKey => ({ assistantMessageId, attempt });
const citationKeyOf = ({ assistantMessageId, requestId }: CitationKey): CitationKey => ({ assistantMessageId, requestId });

/** Everything a record recalled from memory (facts, summary, episodes): what "forget everything" redacts. */
export function memoryItemsOf(record: Record<string, unknown>): Redaction {
  const recalled = Array.isArray(record.recalled)
    ? (record.recalled as Array<{ key: string; kind: string; text: string; meta?: { content?: unknown } }>)
    : [];
  const memory = recalled.filter((item) => item.kind !== 'history');
  const summary = record.summary as { text?: string } | null | undefined;
  const texts = memory.flatMap((item) => [item.text, ...(typeof item.meta?.content === 'string' ? [item.meta.content] : [])]);
  return { texts: [...texts, ...(summary?.text ? [summary.text] : [])], keys: memory.map((item) => item.key) };
}
