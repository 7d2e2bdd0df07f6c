import { and, desc, eq, sql } from 'drizzle-orm';
import { getDb } from './client';
import type { Scope } from './history';
import { summaries, summaryVersions, type Summary } from './schema';

// The rolling summary of a conversation: one current row, every change kept as a version.

export async function getSummary(scope: Scope): Promise<Summary | undefined> {
  const [row] = await getDb()
    .select()
    .from(summaries)
    .where(and(eq(summaries.conversationId, scope.conversationId), eq(summaries.userId, scope.userId)));
  return row;
}

export async function listSummaryVersions(scope: Scope) {
  return getDb()
    .select()
    .from(summaryVersions)
    .where(and(eq(summaryVersions.conversationId, scope.conversationId), eq(summaryVersions.userId, scope.userId)))
    .orderBy(desc(summaryVersions.version));
}

type SummaryWrite = {
  content: string;
  coveredMessageCount: number;
  lastCoveredMessageId: string | null;
  sourceMessageIds: string[];
  actor: string;
  action: 'refresh' | 'edit' | 'clear';
};

/** Writes the new current summary and its version row together; `expectedVersion` guards concurrent writers. */
export async function writeSummary(scope: Scope, write: SummaryWrite, expectedVersion: number | null): Promise<Summary | undefined> {
  return getDb().transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(summaries)
      .where(and(eq(summaries.conversationId, scope.conversationId), eq(summaries.userId, scope.userId)))
      .for('update');
    if ((current?.version ?? null) !== expectedVersion) return undefined;
    const version = (current?.version ?? 0) + 1;
    const values = {
      content: write.content,
      version,
      coveredMessageCount: write.coveredMessageCount,
      lastCoveredMessageId: write.lastCoveredMessageId,
      sourceMessageIds: write.sourceMessageIds,
      updatedBy: write.actor,
      updatedAt: sql`now()`,
    };
    const [row] = await tx
      .insert(summaries)
      .values({ ...scope, ...values })
      .onConflictDoUpdate({ target: summaries.conversationId, set: values })
      .returning();
    await tx.insert(summaryVersions).values({
      ...scope,
      version,
      action: write.action,
      actor: write.actor,
      before: current?.content ?? null,
      after: write.content,
      coveredMessageCount: write.coveredMessageCount,
      lastCoveredMessageId: write.lastCoveredMessageId,
    });
    return row;
  });
}
