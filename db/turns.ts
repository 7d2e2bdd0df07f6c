import 'server-only';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from './client';
import { endReply, type ReplyOutcome } from './history';
import type { Executor } from './provenance';
import { citations, retrievalCache, turnRecords } from './schema';

export type TurnRecordRow = typeof turnRecords.$inferSelect;

type TurnRecordInsert = typeof turnRecords.$inferInsert;
type CitationsInsert = typeof citations.$inferInsert;

/**
 * One attempt's record and the items its context numbered, stored as the model is called (or, while
 * the turn runs, updated): one statement for the two tables, neither read before the other is written.
 */
export async function saveTurnStart(record: TurnRecordInsert, items: CitationsInsert): Promise<void> {
  const db = getDb();
  const recorded = db.$with('recorded').as(
    db
      .insert(turnRecords)
      .values(record)
      .onConflictDoUpdate({
        target: [turnRecords.assistantMessageId, turnRecords.attempt],
        set: { record: record.record, requestId: record.requestId, updatedAt: sql`now()` },
      }),
  );
  await db
    .with(recorded)
    .insert(citations)
    .values(items)
    .onConflictDoUpdate({
      target: [citations.assistantMessageId, citations.requestId],
      set: { items: items.items, citedKeys: items.citedKeys, repeatedKeys: items.repeatedKeys, retrievalRuns: items.retrievalRuns },
    });
}

/** The next attempt number for a reply: a Retry keeps the earlier attempts' records. */
export async function nextAttempt(userId: string, assistantMessageId: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`coalesce(max(${turnRecords.attempt}), 0)::int` })
    .from(turnRecords)
    .where(and(eq(turnRecords.assistantMessageId, assistantMessageId), eq(turnRecords.userId, userId)));
  return row.n + 1;
}

/** Every attempt's record for a reply, newest first. */
export async function getTurnRecords(userId: string, assistantMessageId: string): Promise<TurnRecordRow[]> {
  return getDb()
    .select()
    .from(turnRecords)
    .where(and(eq(turnRecords.assistantMessageId, assistantMessageId), eq(turnRecords.userId, userId)))
    .orderBy(desc(turnRecords.attempt));
}

/** How a text appears inside jsonb's text form (quotes, backslashes and control characters escaped). */
const asJsonText = (text: string) => JSON.stringify(text).slice(1, -1);

/** Where a page of the user's turn records ends: the next page starts after it. */
export type TurnRecordKey = Pick<TurnRecordRow, 'assistantMessageId' | 'attempt'>;
/** Where a page of the user's citation rows ends. */
export type CitationKey = Pick<CitationRow, 'assistantMessageId' | 'requestId'>;
/** A keyset page: up to `limit` rows after `after`, in key order (all of them when no limit is given). */
export type Page<K> = { after?: K; limit?: number };

/** The user's records that hold any of these texts or item keys (all of them when both are empty and `all` is set). */
export async function turnRecordsQuoting(
  userId: string,
  needles: string[],
  options: { all?: boolean } & Page<TurnRecordKey> = {},
): Promise<TurnRecordRow[]> {
  const wanted = needles.filter((n) => n.length > 0).map(asJsonText);
  if (wanted.length === 0 && !options.all) return [];
  const { after, limit } = options;
  const query = getDb()
    .select()
    .from(turnRecords)
    .where(
      and(
        eq(turnRecords.userId, userId),
        options.all
          ? undefined
          : sql`exists (select 1 from unnest(${sql.param(wanted)}::text[]) as n(t) where strpos(${turnRecords.record}::text, n.t) > 0)`,
        after
          ? sql`(${turnRecords.assistantMessageId}, ${turnRecords.attempt}) > (${after.assistantMessageId}::uuid, ${after.attempt}::int)`
          : undefined,
      ),
    );
  return limit === undefined ? query : query.orderBy(turnRecords.assistantMessageId, turnRecords.attempt).limit(limit);
}

/**
 * A reply's end, in one statement: its row ends (once: only a streaming row is ended), its record gets
 * the turn's own fields (status, usage, what it cited, timings) with the rest left as stored, since a
 * correction made while the reply streamed has redacted it, and its citation row what the reply cited
 * and repeated. Returns the record as it now stands (null if it was never stored).
 */
export async function finishTurn(
  key: { userId: string; assistantMessageId: string; attempt: number; requestId: string },
  end: { reply: ReplyOutcome; record: Record<string, unknown>; citedKeys: string[]; repeatedKeys: string[] },
): Promise<Record<string, unknown> | null> {
  const db = getDb();
  const ended = db.$with('ended').as(endReply(db, key.userId, key.assistantMessageId, end.reply));
  const cited = db.$with('cited').as(
    db
      .update(citations)
      .set({ citedKeys: end.citedKeys, repeatedKeys: end.repeatedKeys })
      .where(
        and(
          eq(citations.userId, key.userId),
          eq(citations.assistantMessageId, key.assistantMessageId),
          eq(citations.requestId, key.requestId),
        ),
      ),
  );
  const [row] = await db
    .with(ended, cited)
    .update(turnRecords)
    .set({ record: sql`${turnRecords.record} || ${JSON.stringify(end.record)}::jsonb`, updatedAt: sql`now()` })
    .where(
      and(
        eq(turnRecords.userId, key.userId),
        eq(turnRecords.assistantMessageId, key.assistantMessageId),
        eq(turnRecords.attempt, key.attempt),
      ),
    )
    .returning({ record: turnRecords.record });
  return row?.record ?? null;
}

export async function replaceTurnRecord(
  userId: string,
  assistantMessageId: string,
  attempt: number,
  record: Record<string, unknown>,
): Promise<void> {
  await getDb()
    .update(turnRecords)
    .set({ record, updatedAt: sql`now()` })
    .where(and(eq(turnRecords.userId, userId), eq(turnRecords.assistantMessageId, assistantMessageId), eq(turnRecords.attempt, attempt)));
}

export type CitationRow = typeof citations.$inferSelect;

/**
 * The texts (as stored, redacted since) of the items each reply cited or repeated word for word, by
 * reply id: what an exchange made from a reply links to instead of copying.
 */
export async function quotedItemTexts(userId: string, assistantMessageIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (assistantMessageIds.length === 0) return out;
  const rows = await getDb()
    .select({ id: citations.assistantMessageId, items: citations.items, cited: citations.citedKeys, repeated: citations.repeatedKeys })
    .from(citations)
    .where(and(eq(citations.userId, userId), inArray(citations.assistantMessageId, assistantMessageIds)));
  for (const row of rows) {
    const keys = new Set([...row.cited, ...row.repeated]);
    const texts = (row.items as Array<{ key: string; text: string }>).filter((item) => keys.has(item.key)).map((item) => item.text);
    out.set(row.id, [...(out.get(row.id) ?? []), ...texts]);
  }
  return out;
}

export async function getCitations(userId: string, assistantMessageId: string) {
  return getDb()
    .select()
    .from(citations)
    .where(and(eq(citations.assistantMessageId, assistantMessageId), eq(citations.userId, userId)));
}

/** Citation rows holding any of these texts, or citing any of these keys. */
export async function citationsQuoting(
  userId: string,
  needles: string[],
  keys: string[],
  options: { all?: boolean } & Page<CitationKey> = {},
): Promise<CitationRow[]> {
  const wanted = needles.filter((n) => n.length > 0).map(asJsonText);
  if (wanted.length === 0 && keys.length === 0 && !options.all) return [];
  const { after, limit } = options;
  const query = getDb()
    .select()
    .from(citations)
    .where(
      and(
        eq(citations.userId, userId),
        options.all
          ? undefined
          : sql`(${citations.citedKeys} && ${sql.param(keys)}::text[] or ${citations.repeatedKeys} && ${sql.param(keys)}::text[]
              or exists (select 1 from unnest(${sql.param(wanted)}::text[]) as n(t) where strpos(${citations.items}::text, n.t) > 0))`,
        after
          ? sql`(${citations.assistantMessageId}, ${citations.requestId}) > (${after.assistantMessageId}::uuid, ${after.requestId}::uuid)`
          : undefined,
      ),
    );
  return limit === undefined ? query : query.orderBy(citations.assistantMessageId, citations.requestId).limit(limit);
}

/** A citation row's retrieval runs as its turn record now has them (redacted with it). */
export async function replaceCitationRuns(
  row: Pick<CitationRow, 'userId' | 'assistantMessageId' | 'requestId'>,
  retrievalRuns: unknown[],
): Promise<void> {
  await getDb()
    .update(citations)
    .set({ retrievalRuns })
    .where(
      and(
        eq(citations.userId, row.userId),
        eq(citations.assistantMessageId, row.assistantMessageId),
        eq(citations.requestId, row.requestId),
      ),
    );
}

export async function replaceCitationItems(
  row: Pick<CitationRow, 'userId' | 'assistantMessageId' | 'requestId'>,
  items: unknown[],
): Promise<void> {
  await getDb()
    .update(citations)
    .set({ items })
    .where(
      and(
        eq(citations.userId, row.userId),
        eq(citations.assistantMessageId, row.assistantMessageId),
        eq(citations.requestId, row.requestId),
      ),
    );
}

/** Retrieval rewrites are keyed by content; a correction drops the user's cached ones, which may quote what was corrected. */
export async function dropCachedRewrites(userId: string, executor: Executor = getDb()): Promise<number> {
  const rows = await executor.delete(retrievalCache).where(eq(retrievalCache.userId, userId)).returning({ key: retrievalCache.key });
  return rows.length;
}

export async function getCachedRewrite(userId: string, key: string) {
  const [row] = await getDb()
    .select()
    .from(retrievalCache)
    .where(and(eq(retrievalCache.key, key), eq(retrievalCache.userId, userId)));
  return row;
}

export async function cacheRewrite(userId: string, key: string, query: string, reason: string): Promise<void> {
  await getDb().insert(retrievalCache).values({ key, userId, query, reason }).onConflictDoNothing();
}
