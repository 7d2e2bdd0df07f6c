import { and, eq, sql } from 'drizzle-orm';
import { getDb } from './client';
import { citations, retrievalCache, turnRecords } from './schema';

export async function saveTurnRecord(row: {
  assistantMessageId: string;
  userId: string;
  conversationId: string;
  requestId: string;
  record: Record<string, unknown>;
}): Promise<void> {
  await getDb()
    .insert(turnRecords)
    .values(row)
    .onConflictDoUpdate({ target: turnRecords.assistantMessageId, set: { record: row.record, requestId: row.requestId, updatedAt: sql`now()` } });
}

export async function getTurnRecord(userId: string, assistantMessageId: string) {
  const [row] = await getDb()
    .select()
    .from(turnRecords)
    .where(and(eq(turnRecords.assistantMessageId, assistantMessageId), eq(turnRecords.userId, userId)));
  return row;
}

export async function saveCitations(row: {
  assistantMessageId: string;
  requestId: string;
  userId: string;
  items: unknown[];
  citedKeys: string[];
  retrievalRuns: unknown[];
}): Promise<void> {
  await getDb()
    .insert(citations)
    .values(row)
    .onConflictDoUpdate({
      target: [citations.assistantMessageId, citations.requestId],
      set: { items: row.items, citedKeys: row.citedKeys, retrievalRuns: row.retrievalRuns },
    });
}

export async function getCitations(userId: string, assistantMessageId: string) {
  return getDb()
    .select()
    .from(citations)
    .where(and(eq(citations.assistantMessageId, assistantMessageId), eq(citations.userId, userId)));
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
