import { addFact, supersedeFact, withSources } from '@/db/facts';
import {
  type FactUsage,
  factUsage,
  findActiveFactByContent,
  type MemoryUsage,
  memoryUsage,
  messagePlaces,
  type PageCursor,
  searchFactsByText,
} from '@/db/memory-page';
import { redactionsOf } from '@/db/provenance';
import type { Fact } from '@/db/schema';
import { type Actor, audit } from '@/lib/audit';
import { getModels } from '@/lib/llm';
import { indexTerms } from '@/lib/text/index-terms';
import { embedTexts } from './embed';
import { FACT_SLOTS, type FactSlot, SINGLE_VALUED_SLOTS } from './rules/fact-types';

// The user's Memory page (/memory): what its routes need beyond the plain queries.

/** The kinds of fact memlens keeps; a fact added by hand is a plain `statement` unless the user picks one. */

export type AddedFact = { status: 'added' | 'replaced'; fact: Fact; replaced: string | null } | { status: 'duplicate'; fact: Fact };

/**
 * A fact the user adds by hand, with no source message (actor `user:<id>`). A slot that holds one
 * value at a time (name, home, work, diet) replaces its current fact, which ends and stays in the
 * history, as when the user says it in a chat. The same text as an active fact is not added twice.
 */
export async function addFactByHand(userId: string, input: { content: string; slot: FactSlot }, actor: Actor): Promise<AddedFact> {
  const existing = await findActiveFactByContent(userId, input.content);
  if (existing) return { status: 'duplicate', fact: existing };
  const [embedding] = await embedTexts(getModels(), [input.content]);
  const write = { userId, conversationId: null, source: null, actor: actor.label };
  const fact = {
    slot: input.slot,
    content: input.content,
    value: input.content.toLowerCase(),
    indexTerms: indexTerms(input.content),
    embedding,
  };
  let added: Extract<AddedFact, { status: 'added' | 'replaced' }> | undefined;
  if (SINGLE_VALUED_SLOTS.has(input.slot)) {
    const current = (await searchFactsByText(userId, { status: 'active' })).find((f) => f.slot === input.slot);
    const replacement = current ? await supersedeFact(write, current.id, fact) : undefined;
    if (current && replacement) added = { status: 'replaced', fact: replacement, replaced: current.id };
  }
  added ??= { status: 'added', fact: await addFact(write, fact), replaced: null };
  await audit(actor, userId, [
    {
      objectType: 'fact',
      objectId: added.fact.id,
      action: 'add',
      before: null,
      after: { content: input.content, slot: input.slot, replaced: added.replaced },
    },
  ]);
  return added;
}

type FactSource = {
  messageId: string;
  spanStart: number | null;
  spanEnd: number | null;
  /** Null when the message is gone (it never is while the link exists: the link goes with it). */
  conversationId: string | null;
  conversationTitle: string | null;
  role: 'user' | 'assistant' | null;
  /** The words of the message that stated the fact (null when a part of them was forgotten). */
  excerpt: string | null;
};

/**
 * One listed item: the facts one statement gave, one per kind (the newest changed first: its `id`,
 * `slot`, times and status are the item's), with `ids` and `kinds` of them all, their sources and
 * the replies that held or cited any of them.
 */
export type PageFact = Omit<Fact, 'embedding' | 'searchVector' | 'inGraph'> & {
  ids: string[];
  kinds: FactSlot[];
  sources: FactSource[];
  sourceMessageIds: string[];
  usedIn: FactUsage;
};

const EXCERPT_CHARS = 160;
const KIND_ORDER = new Map<string, number>(FACT_SLOTS.map((slot, i) => [slot, i]));

/**
 * Items as the API shows them (each the facts of one statement, as `listFactsPage` groups them; a
 * fact alone is an item of one), with where each source message is and the replies that cited it.
 */
export async function describeFacts(userId: string, items: Fact[][]): Promise<PageFact[]> {
  items = items.filter((item) => item.length > 0);
  const listed = new Map((await withSources(userId, items.flat())).map((fact) => [fact.id, fact]));
  const messageIds = [...new Set([...listed.values()].flatMap((f) => f.sourceMessageIds))];
  const [places, usage, redactions] = await Promise.all([
    messagePlaces(userId, messageIds),
    factUsage(
      userId,
      items.map((item) => item.map((f) => f.id)),
    ),
    redactionsOf(userId, messageIds),
  ]);
  return items.map((item) => {
    const members = item.map((f) => listed.get(f.id)!);
    const byKind = members.toSorted((a, b) => (KIND_ORDER.get(a.slot) ?? 99) - (KIND_ORDER.get(b.slot) ?? 99));
    const spans = [
      ...new Map(members.flatMap((f) => f.sources).map((span) => [`${span.messageId}:${span.spanStart}:${span.spanEnd}`, span])).values(),
    ];
    return {
      ...members[0],
      ids: byKind.map((f) => f.id),
      kinds: [...new Set(byKind.map((f) => f.slot as FactSlot))],
      sourceMessageIds: [...new Set(members.flatMap((f) => f.sourceMessageIds))],
      sources: spans.map((span) => {
        const place = places.get(span.messageId);
        const forgotten = redactions.some(
          (r) =>
            r.messageId === span.messageId &&
            r.kind === 'forgotten' &&
            r.spanStart < (span.spanEnd ?? Number.POSITIVE_INFINITY) &&
            r.spanEnd > (span.spanStart ?? 0),
        );
        return {
          ...span,
          conversationId: place?.conversationId ?? null,
          conversationTitle: place?.conversationTitle ?? null,
          role: place?.role ?? null,
          excerpt: place && !forgotten ? excerptOf(place.content, span.spanStart, span.spanEnd) : null,
        };
      }),
      usedIn: usage.get(item[0].id) ?? { count: 0, sent: 0, replies: [] },
    };
  });
}

function excerptOf(content: string, start: number | null, end: number | null): string {
  const text = (start !== null && end !== null && end > start ? content.slice(start, end) : content).replace(/\s+/gu, ' ').trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

/** Remembered exchanges with the replies whose context held each one and those that cited it. */
export async function withEpisodeUsage<T extends { id: string }>(
  userId: string,
  episodes: T[],
): Promise<Array<T & { usedIn: MemoryUsage }>> {
  const usage = await memoryUsage(
    userId,
    episodes.map((e) => `episode:${e.id}`),
  );
  return episodes.map((episode) => ({ ...episode, usedIn: usage.get(`episode:${episode.id}`) ?? { count: 0, sent: 0, replies: [] } }));
}

// ── Page cursors (facts and episodes) ────────────────────────────────────────────────────────

/** An opaque page cursor for the client. */
export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;

/** The cursor back, or undefined when it is not one this API made. */
export function decodeCursor(text: string): PageCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [at, id] = value;
    if (typeof at !== 'string' || typeof id !== 'string' || !TIMESTAMP.test(at) || !UUID.test(id)) return undefined;
    return { at, id };
  } catch {
    return undefined;
  }
}
