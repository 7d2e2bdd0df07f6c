import 'server-only';
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { getDb } from './client';
import { ownerOf, type Scope } from './history';
import { type Executor, linkSources } from './provenance';
import { memorySources, messages, type Summary, type SummaryAction, summaries, summaryVersions } from './schema';
import { forgottenAmong } from './users';

// The rolling summary of a conversation: one current row, every change kept as a version, and each
// version linked to the messages it came from.

/** Where a summary stops: the position (created_at, seq) of the last message it covers. */
export type Position = { at: string; seq: number };

export async function getSummary(scope: Scope, executor: Executor = getDb()): Promise<Summary | undefined> {
  const [row] = await executor
    .select()
    .from(summaries)
    .where(and(eq(summaries.conversationId, scope.conversationId), eq(summaries.userId, scope.userId)));
  return row;
}

export function coveredUntil(summary: Pick<Summary, 'coveredUntilAt' | 'coveredUntilSeq'> | undefined): Position | null {
  return summary?.coveredUntilAt && summary.coveredUntilSeq !== null ? { at: summary.coveredUntilAt, seq: summary.coveredUntilSeq } : null;
}

/** The position of every message of the conversation (as `positionOfMessage` gives one), by id. */
export async function messagePositions(scope: Scope): Promise<Map<string, Position>> {
  const rows = await getDb()
    .select({ id: messages.id, at: sql<string>`${messages.createdAt}::text`, seq: messages.seq })
    .from(messages)
    .where(and(eq(messages.conversationId, scope.conversationId), eq(messages.userId, scope.userId)));
  return new Map(rows.map(({ id, ...position }) => [id, position]));
}

/** The messages the current version was built from. */
export async function summarySources(scope: Scope, version: number): Promise<string[]> {
  const rows = await getDb()
    .select({ messageId: memorySources.messageId })
    .from(memorySources)
    .innerJoin(summaryVersions, eq(summaryVersions.id, memorySources.summaryVersionId))
    .where(
      and(
        eq(summaryVersions.conversationId, scope.conversationId),
        eq(summaryVersions.userId, scope.userId),
        eq(summaryVersions.version, version),
        eq(memorySources.userId, scope.userId),
      ),
    );
  return rows.map((r) => r.messageId);
}

export async function listSummaryVersions(scope: Scope) {
  return getDb()
    .select()
    .from(summaryVersions)
    .where(and(eq(summaryVersions.conversationId, scope.conversationId), eq(summaryVersions.userId, scope.userId)))
    .orderBy(desc(summaryVersions.version));
}

/** A message the summary stands for: the summary says something, and the message lies after its clear point and up to where it covers. */
const SUMMARY_COVERS_MESSAGE = sql`${summaries.content} <> '' and ${messages.seq} > ${summaries.floorSeq}
  and (${messages.createdAt}, ${messages.seq}) <= (${summaries.coveredUntilAt}, ${summaries.coveredUntilSeq})`;

/** Which of these messages the current summary stands for (so the window need not send them raw). */
export async function messagesCoveredBySummary(scope: Scope, messageIds: string[], executor: Executor = getDb()): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows = await executor
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(summaries, eq(summaries.conversationId, messages.conversationId))
    .where(
      and(
        eq(messages.userId, scope.userId),
        eq(messages.conversationId, scope.conversationId),
        inArray(messages.id, messageIds),
        SUMMARY_COVERS_MESSAGE,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * What a turn reads of the summary, in one statement: the current summary, the messages its version
 * was built from, and which of the window's messages it already covers (as `messagesCoveredBySummary`).
 */
export async function summaryForRecall(
  scope: Scope,
  windowIds: string[],
): Promise<{ summary: Summary; sources: string[]; covers: string[] } | undefined> {
  const [row] = await getDb()
    .select({
      ...getTableColumns(summaries),
      sources: sql<string[]>`coalesce((
        select array_agg(s.message_id)::text[] from summary_versions v
        join memory_sources s on s.summary_version_id = v.id and s.user_id = v.user_id
        where v.conversation_id = summaries.conversation_id and v.user_id = summaries.user_id and v.version = summaries.version), '{}')`,
      covers: sql<string[]>`coalesce((
        select array_agg(${messages.id})::text[] from ${messages}
        where ${messages.userId} = ${summaries.userId} and ${messages.conversationId} = ${summaries.conversationId}
          and ${messages.id} = any(${sql.param(windowIds)}::uuid[]) and ${SUMMARY_COVERS_MESSAGE}), '{}')`,
    })
    .from(summaries)
    .where(and(eq(summaries.conversationId, scope.conversationId), eq(summaries.userId, scope.userId)));
  if (!row) return undefined;
  const { sources, covers, ...summary } = row;
  return { summary, sources, covers };
}

type SummaryWrite = {
  content: string;
  coveredMessageCount: number;
  coveredUntil: Position | null;
  /** The clear point; unchanged when omitted. */
  floorSeq?: number;
  sourceMessageIds: string[];
  actor: string;
  action: SummaryAction;
};

/**
 * Writes the new current summary, its version row and the version's sources together; `expectedVersion`
 * guards concurrent writers. `also` runs in the same transaction once written, with the summary it replaced;
 * `executor` is the caller's transaction when the write is part of a larger change.
 */
export async function writeSummary(
  scope: Scope,
  write: SummaryWrite,
  expectedVersion: number | null,
  { also, executor = getDb() }: { also?: (tx: Executor, replaced: Summary | undefined) => Promise<void>; executor?: Executor } = {},
): Promise<Summary | undefined> {
  return executor.transaction(async (tx) => {
    // The user's floor before the summary's row, the order "forget everything" takes them in: a
    // summary of messages it took meanwhile is not written (the writer reads again, as on a conflict).
    if ((await forgottenAmong(tx, scope.userId, write.sourceMessageIds)).size > 0) return undefined;
    const [current] = await tx
      .select()
      .from(summaries)
      .where(and(eq(summaries.conversationId, scope.conversationId), eq(summaries.userId, scope.userId)))
      .for('update');
    if ((current?.version ?? null) !== expectedVersion) return undefined;
    const version = (current?.version ?? 0) + 1;
    const coverage = {
      coveredMessageCount: write.coveredMessageCount,
      coveredUntilAt: write.coveredUntil?.at ?? null,
      coveredUntilSeq: write.coveredUntil?.seq ?? null,
    };
    const values = {
      content: write.content,
      version,
      ...coverage,
      floorSeq: write.floorSeq ?? current?.floorSeq ?? 0,
      updatedBy: write.actor,
      updatedAt: sql`now()`,
    };
    const [row] = await tx
      .insert(summaries)
      .values({ ...ownerOf(scope), ...values })
      .onConflictDoUpdate({ target: summaries.conversationId, set: values })
      .returning();
    const [versionRow] = await tx
      .insert(summaryVersions)
      .values({
        ...ownerOf(scope),
        version,
        action: write.action,
        actor: write.actor,
        before: current?.content ?? null,
        after: write.content,
        ...coverage,
      })
      .returning({ id: summaryVersions.id });
    await linkSources(
      tx,
      [...new Set(write.sourceMessageIds)].map((messageId) => ({ userId: scope.userId, messageId, summaryVersionId: versionRow.id })),
    );
    await also?.(tx, current);
    return row;
  });
}
