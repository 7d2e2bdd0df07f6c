import 'server-only';
import { and, desc, eq, getTableColumns, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { getDb } from './client';
import type { Executor } from './provenance';
import {
  conversations,
  episodes,
  factEvents,
  facts,
  jobs,
  memorySources,
  messageRedactions,
  messages,
  summaries,
  type UndoableChange,
  type UndoKind,
  undoableChanges,
  users,
} from './schema';

// Undoable changes of memory: what each removed or changed, kept as rows to put back until its
// time runs out. Every function is scoped by the user's id.

type Row = Record<string, unknown>;

/** The tables a change's rows are put back into, in the order foreign keys need. */
const RESTORABLE = { messages, facts, factEvents, memorySources, messageRedactions } as const;
export type RestorableTable = keyof typeof RESTORABLE;

/**
 * What undoing a change does: `rows` go back as they were (deleted rows inserted, changed rows
 * overwritten), `addedRedactions` and `addedFacts` go, summaries get their clear point back, the
 * user their memory floor, and the memory of `rederive.messages` is derived again.
 */
export type UndoSnapshot = {
  rows?: Partial<Record<RestorableTable, Row[]>>;
  addedRedactions?: string[];
  addedFacts?: string[];
  summaryFloors?: Array<{ conversationId: string; floorSeq: number }>;
  memoryFloorSeq?: number;
  rederive?: { messages: string[]; conversations?: string[] };
};

export type NewUndoableChange = {
  userId: string;
  kind: UndoKind;
  actor: string;
  touches: string[];
  snapshot: UndoSnapshot;
  expiresAt: Date;
  sourceMessageId?: string | null;
  factId?: string | null;
  previousFactId?: string | null;
};

export type UndoRef = { id: string; expiresAt: string };

/** Snapshots erased per change recorded: what ran out of time is kept no longer than the next change. */
const ERASE_BATCH = 100;

/**
 * Records a change in the transaction that makes it. Snapshots whose time ran out (anyone's) are
 * erased on the way, skipping rows another transaction holds, so no change waits for another.
 */
export async function recordUndoable(executor: Executor, change: NewUndoableChange): Promise<UndoRef> {
  await executor.execute(sql`update undoable_changes set snapshot = null where id in (
    select id from undoable_changes where snapshot is not null and expires_at < now()
    limit ${ERASE_BATCH} for update skip locked)`);
  const [row] = await executor
    .insert(undoableChanges)
    .values({ ...change, snapshot: change.snapshot as Row })
    .returning({ id: undoableChanges.id, expiresAt: undoableChanges.expiresAt });
  return { id: row.id, expiresAt: row.expiresAt.toISOString() };
}

/** The change, locked for this transaction (another undo of it waits, then sees it undone). */
export async function lockUndoable(tx: Executor, userId: string, id: string): Promise<UndoableChange | undefined> {
  const [row] = await tx
    .select()
    .from(undoableChanges)
    .where(and(eq(undoableChanges.id, id), eq(undoableChanges.userId, userId)))
    .for('update');
  return row;
}

/**
 * A later change of the user's that still stands and touched what a change touched (`all` touches
 * everything): while there is one, that change must wait. Compared in SQL: a Date holds milliseconds, the column microseconds.
 */
const laterStandingChange = (userId: SQL | string, createdAt: SQL, touches: SQL) =>
  sql`exists (select 1 from undoable_changes l where l.user_id = ${userId} and l.created_at > ${createdAt} and l.undone_at is null
    and (l.touches && ${touches} or 'all' = any(l.touches) or 'all' = any(${touches})))`;

/** Whether a later change that still stands touched what this one touched. */
export async function laterChangeOverlaps(tx: Executor, change: UndoableChange): Promise<boolean> {
  const [row] = await tx.execute<{ blocked: boolean }>(
    sql`select ${laterStandingChange(
      change.userId,
      sql`(select c.created_at from undoable_changes c where c.id = ${change.id})`,
      sql`${sql.param(change.touches)}::text[]`,
    )} as blocked`,
  );
  return row?.blocked === true;
}

export async function markUndone(tx: Executor, id: string): Promise<void> {
  await tx.update(undoableChanges).set({ undoneAt: sql`now()`, snapshot: null }).where(eq(undoableChanges.id, id));
}

/** The changes a turn made, by its user message, oldest first. */
export async function changesFromMessage(userId: string, sourceMessageId: string): Promise<UndoableChange[]> {
  return getDb()
    .select()
    .from(undoableChanges)
    .where(and(eq(undoableChanges.userId, userId), eq(undoableChanges.sourceMessageId, sourceMessageId)))
    .orderBy(undoableChanges.createdAt);
}

/** A change as the user's list of recent changes reads it: never its snapshot, which may hold every fact of the user. */
export type ListedChange = Omit<UndoableChange, 'snapshot' | 'userId'> & {
  /** Whether its snapshot is still kept (erased once undone or once its time ran out). */
  kept: boolean;
  /** How many messages a `message_remove` took away, while its snapshot is kept (one message, or a cleared conversation's). */
  messagesRemoved: number | null;
  /** Whether a later change that still stands touched the same memory (undo that one first). */
  blocked: boolean;
};

/**
 * The user's changes, newest first, `limit` of them after the change `after` (the last one of the
 * page before; one that is not the user's gives nothing).
 */
export async function listChanges(userId: string, { limit, after }: { limit: number; after?: string }): Promise<ListedChange[]> {
  const { snapshot, userId: _, ...columns } = getTableColumns(undoableChanges);
  return getDb()
    .select({
      ...columns,
      kept: sql<boolean>`${snapshot} is not null`,
      blocked: laterStandingChange(
        sql`${undoableChanges.userId}`,
        sql`${undoableChanges.createdAt}`,
        sql`${undoableChanges.touches}`,
      ).mapWith(Boolean),
      messagesRemoved: sql<
        number | null
      >`case when jsonb_typeof(${snapshot} -> 'rows' -> 'messages') = 'array' then jsonb_array_length(${snapshot} -> 'rows' -> 'messages') end`,
    })
    .from(undoableChanges)
    .where(
      and(
        eq(undoableChanges.userId, userId),
        after
          ? // Compared in SQL: a Date holds milliseconds, the column microseconds.
            sql`(${undoableChanges.createdAt}, ${undoableChanges.id}) < (select c.created_at, c.id from undoable_changes c where c.id = ${after} and c.user_id = ${userId})`
          : undefined,
      ),
    )
    .orderBy(desc(undoableChanges.createdAt), desc(undoableChanges.id))
    .limit(limit);
}

/** Whether post-turn work of this reply is still to run. */
export async function replyJobsPending(userId: string, replyId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.userId, userId), eq(jobs.messageId, replyId), inArray(jobs.status, ['pending', 'running'])))
    .limit(1);
  return row !== undefined;
}

/** Rows of the user's facts as stored, with their events and their links to messages. */
export async function factRowsOf(tx: Executor, userId: string, factIds?: string[]): Promise<Partial<Record<RestorableTable, Row[]>>> {
  if (factIds?.length === 0) return {};
  return {
    facts: await tx
      .select()
      .from(facts)
      .where(and(eq(facts.userId, userId), factIds ? inArray(facts.id, factIds) : undefined)),
    factEvents: await tx
      .select()
      .from(factEvents)
      .where(and(eq(factEvents.userId, userId), factIds ? inArray(factEvents.factId, factIds) : undefined)),
    memorySources: await tx
      .select()
      .from(memorySources)
      .where(and(eq(memorySources.userId, userId), factIds ? inArray(memorySources.factId, factIds) : isNotNull(memorySources.factId))),
  };
}

/** The links of facts to these messages, and the redactions on them (or those of these facts of one kind). */
export async function linksAndRedactionsOf(tx: Executor, userId: string, messageIds: string[]) {
  if (messageIds.length === 0) return { memorySources: [], messageRedactions: [] };
  return {
    memorySources: await tx
      .select()
      .from(memorySources)
      .where(and(eq(memorySources.userId, userId), inArray(memorySources.messageId, messageIds), isNotNull(memorySources.factId))),
    messageRedactions: await tx
      .select()
      .from(messageRedactions)
      .where(and(eq(messageRedactions.userId, userId), inArray(messageRedactions.messageId, messageIds))),
  };
}

/** The corrections (redactions of kind `corrected`) these facts made, as stored. */
export async function correctionsOfFacts(tx: Executor, userId: string, factIds: string[]) {
  if (factIds.length === 0) return [];
  return tx
    .select()
    .from(messageRedactions)
    .where(and(eq(messageRedactions.userId, userId), inArray(messageRedactions.factId, factIds), eq(messageRedactions.kind, 'corrected')));
}

/** The user's summaries' clear points and memory floor, before forget everything removes them. */
export async function floorsOf(tx: Executor, userId: string) {
  const summaryFloors = await tx
    .select({ conversationId: summaries.conversationId, floorSeq: summaries.floorSeq })
    .from(summaries)
    .where(eq(summaries.userId, userId));
  const [user] = await tx.select({ floor: users.memoryFloorSeq }).from(users).where(eq(users.id, userId));
  return { summaryFloors, memoryFloorSeq: user?.floor ?? 0 };
}

/** A stored row as it came back from JSON: timestamps are Dates again. */
function revive(table: PgTable, row: Row): Row {
  const out: Row = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (!(key in row)) continue;
    const value = row[key];
    out[key] = column.dataType === 'date' && typeof value === 'string' ? new Date(value) : value;
  }
  return out;
}

const existing = async (tx: Executor, table: typeof messages | typeof facts | typeof conversations, ids: unknown[]) => {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
  if (wanted.length === 0) return new Set<string>();
  const rows = await tx.select({ id: table.id }).from(table).where(inArray(table.id, wanted));
  return new Set(rows.map((r) => r.id));
};

/**
 * Puts rows back as the snapshot holds them, each only where what it hangs on still exists (a
 * conversation deleted since takes its messages and facts with it for good). Returns how many went back.
 */
export async function putRowsBack(tx: Executor, userId: string, rows: Partial<Record<RestorableTable, Row[]>>): Promise<number> {
  const mine = (list: Row[] | undefined) => (list ?? []).filter((r) => r.userId === userId);
  const liveConversations = await existing(tx, conversations, [
    ...mine(rows.messages).map((r) => r.conversationId),
    ...mine(rows.facts).map((r) => r.conversationId),
  ]);
  let count = 0;
  const put = async (name: RestorableTable, list: Row[]) => {
    if (list.length === 0) return;
    // One insert serves every table: the rows are each table's own, as selected.
    const table = RESTORABLE[name] as unknown as typeof facts;
    const values = list.map((r) => revive(table, r)) as Array<typeof facts.$inferInsert>;
    count += values.length;
    if (name === 'messages') {
      // The same place in the conversation: seq is kept.
      await tx
        .insert(messages)
        .overridingSystemValue()
        .values(values as unknown as Array<typeof messages.$inferInsert>)
        .onConflictDoNothing();
      return;
    }
    // Rows the change updated are overwritten with what they held before it.
    const { id, ...columns } = getTableColumns(table);
    await tx
      .insert(table)
      .values(values)
      .onConflictDoUpdate({
        target: id,
        set: Object.fromEntries(Object.entries(columns).map(([key, c]) => [key, sql`excluded.${sql.identifier(c.name)}`])),
      });
  };
  await put(
    'messages',
    mine(rows.messages).filter((r) => liveConversations.has(r.conversationId as string)),
  );
  await put(
    'facts',
    mine(rows.facts).filter((r) => r.conversationId === null || liveConversations.has(r.conversationId as string)),
  );
  const linked = [...mine(rows.memorySources), ...mine(rows.messageRedactions)];
  const liveMessages = await existing(
    tx,
    messages,
    linked.map((r) => r.messageId),
  );
  const liveFacts = await existing(
    tx,
    facts,
    [...mine(rows.factEvents), ...linked].map((r) => r.factId),
  );
  const attached = (r: Row) => liveMessages.has(r.messageId as string) && (r.factId === null || liveFacts.has(r.factId as string));
  await put(
    'factEvents',
    mine(rows.factEvents).filter((r) => liveFacts.has(r.factId as string)),
  );
  await put('memorySources', mine(rows.memorySources).filter(attached));
  // A redaction's fact may be gone (no foreign key): it stands on its message alone.
  await put(
    'messageRedactions',
    mine(rows.messageRedactions).filter((r) => liveMessages.has(r.messageId as string)),
  );
  return count;
}

export async function deleteRedactionsById(tx: Executor, userId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.delete(messageRedactions).where(and(eq(messageRedactions.userId, userId), inArray(messageRedactions.id, ids)));
}

export async function setMemoryFloor(tx: Executor, userId: string, floorSeq: number): Promise<void> {
  await tx.update(users).set({ memoryFloorSeq: floorSeq }).where(eq(users.id, userId));
}

/** Replies whose turn has no episode (one forgotten or removed), among these messages' turns or, with none given, all the user's. */
export async function repliesWithoutEpisode(executor: Executor, userId: string, messageIds?: string[]) {
  if (messageIds?.length === 0) return [];
  return executor
    .select({ id: messages.id, conversationId: messages.conversationId })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        eq(messages.role, 'assistant'),
        eq(messages.status, 'complete'),
        messageIds
          ? sql`(${messages.id} = any(${sql.param(messageIds)}::uuid[]) or ${messages.replyTo} = any(${sql.param(messageIds)}::uuid[]))`
          : undefined,
        sql`not exists (select 1 from ${episodes} where ${episodes.assistantMessageId} = ${messages.id})`,
      ),
    )
    .orderBy(desc(messages.seq));
}
