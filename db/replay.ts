import 'server-only';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from './client';
import { aboveMemoryFloor, type Scope } from './history';
import { episodes, type Fact, facts, type Message, messages } from './schema';

/** Where a replayed turn's recent window ends: before a message (its question), or, when that is gone, before a time. */
export type WindowEnd = { beforeMessageId: string } | { beforeTime: Date };

/**
 * The recent window of a past turn: the last `limit` messages of the conversation positioned before
 * the turn's question, oldest first. Positions are compared as (created_at, seq) in SQL, as
 * db/history.ts does (created_at has microseconds, a JS Date only milliseconds); the LIMIT runs in SQL.
 * As today's window, it holds nothing from before the user's memory floor.
 */
export async function loadWindowBefore(scope: Scope, end: WindowEnd, limit: number, exclude: string[] = []): Promise<Message[]> {
  if (limit <= 0) return [];
  const before =
    'beforeMessageId' in end
      ? sql`(${messages.createdAt}, ${messages.seq}) < (select m.created_at, m.seq from messages m where m.id = ${end.beforeMessageId} and m.user_id = ${scope.userId})`
      : sql`${messages.createdAt} < ${end.beforeTime.toISOString()}::timestamptz`;
  const rows = await getDb()
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, scope.conversationId),
        eq(messages.userId, scope.userId),
        before,
        aboveMemoryFloor,
        exclude.length ? sql`${messages.id} not in ${exclude}` : undefined,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.seq))
    .limit(limit);
  return rows.reverse();
}

/** What became of facts since a turn recalled them: status and when each was learned (absent = deleted). */
export async function factStates(userId: string, ids: string[]): Promise<Map<string, { status: Fact['status']; createdAt: Date }>> {
  if (ids.length === 0) return new Map();
  const rows = await getDb()
    .select({ id: facts.id, status: facts.status, createdAt: facts.createdAt })
    .from(facts)
    .where(and(eq(facts.userId, userId), inArray(facts.id, ids)));
  return new Map(rows.map((r) => [r.id, { status: r.status, createdAt: r.createdAt }]));
}

/** When the episodes were indexed (absent = removed since). */
export async function episodeStates(userId: string, ids: string[]): Promise<Map<string, { createdAt: Date }>> {
  if (ids.length === 0) return new Map();
  const rows = await getDb()
    .select({ id: episodes.id, createdAt: episodes.createdAt })
    .from(episodes)
    .where(and(eq(episodes.userId, userId), inArray(episodes.id, ids)));
  return new Map(rows.map((r) => [r.id, { createdAt: r.createdAt }]));
}
