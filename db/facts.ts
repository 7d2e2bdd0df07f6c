import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from './client';
import { hybridSearch } from './hybrid-search';
import { citations, factEvents, facts, turnRecords, type Fact } from './schema';
import type { RankedCandidate } from './vector';

// Every function takes the signed-in user's id and filters by it.

export type FactHit = RankedCandidate & { fact: Fact };

export type FactQuery = {
  userId: string;
  embedding: number[];
  keywords: string[];
  k: number;
  minSimilarity?: number;
  /** Option: leave out facts learned in this conversation. */
  excludeConversationId?: string;
};

/** Hybrid recall over the user's ACTIVE facts; superseded and deleted facts have no embedding and are filtered out. */
export async function searchFacts(query: FactQuery): Promise<FactHit[]> {
  const hits = await hybridSearch({
    table: 'facts',
    scope: sql`e.user_id = ${query.userId} and e.status = 'active'
      ${query.excludeConversationId ? sql`and e.conversation_id is distinct from ${query.excludeConversationId}` : sql``}`,
    embedding: query.embedding,
    keywords: query.keywords,
    k: query.k,
    minSimilarity: query.minSimilarity ?? -1,
  });
  return hits.map(({ row, ...ranks }) => ({ ...ranks, fact: factFromRow(row) }));
}

/** Candidates for reconciliation: the active facts of the same slot, plus the most similar others. */
export async function findRelatedActiveFacts(userId: string, slot: string, embedding: number[], keywords: string[]): Promise<Fact[]> {
  const sameSlot = await getDb()
    .select()
    .from(facts)
    .where(and(eq(facts.userId, userId), eq(facts.status, 'active'), eq(facts.slot, slot)));
  const similar = await searchFacts({ userId, embedding, keywords, k: 5 });
  const byId = new Map(sameSlot.map((f) => [f.id, f]));
  for (const hit of similar) byId.set(hit.fact.id, hit.fact);
  return [...byId.values()];
}

export type FactWrite = {
  userId: string;
  conversationId: string | null;
  sourceMessageId: string | null;
  actor: string;
};

export type NewFact = { slot: string; content: string; value: string; embedding: number[]; validFrom?: Date };

function factRow(write: FactWrite, fact: NewFact) {
  return {
    userId: write.userId,
    conversationId: write.conversationId,
    slot: fact.slot,
    content: fact.content,
    value: fact.value,
    embedding: fact.embedding,
    sourceMessageIds: write.sourceMessageId ? [write.sourceMessageId] : [],
    ...(fact.validFrom ? { validFrom: fact.validFrom } : {}),
  };
}

export async function addFact(write: FactWrite, fact: NewFact): Promise<Fact> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx.insert(facts).values(factRow(write, fact)).returning();
    await tx.insert(factEvents).values({ factId: row.id, userId: write.userId, event: 'ADD', newContent: fact.content, actor: write.actor, sourceMessageId: write.sourceMessageId });
    return row;
  });
}

/** UPDATE: the old fact ends (kept, superseded, no longer searchable) and the new one starts. */
export async function supersedeFact(write: FactWrite, oldFactId: string, fact: NewFact): Promise<Fact | undefined> {
  return getDb().transaction(async (tx) => {
    const [old] = await tx
      .select()
      .from(facts)
      .where(and(eq(facts.id, oldFactId), eq(facts.userId, write.userId), eq(facts.status, 'active')));
    if (!old) return undefined;
    const validFrom = fact.validFrom ?? new Date();
    const [row] = await tx.insert(facts).values(factRow(write, { ...fact, validFrom })).returning();
    await tx
      .update(facts)
      .set({ status: 'superseded', validTo: validFrom, supersededBy: row.id, embedding: null, updatedAt: sql`now()` })
      .where(eq(facts.id, old.id));
    await tx.insert(factEvents).values([
      { factId: old.id, userId: write.userId, event: 'UPDATE', oldContent: old.content, newContent: fact.content, actor: write.actor, sourceMessageId: write.sourceMessageId },
      { factId: row.id, userId: write.userId, event: 'ADD', oldContent: old.content, newContent: fact.content, actor: write.actor, sourceMessageId: write.sourceMessageId },
    ]);
    return row;
  });
}

/** DELETE decision: the fact stopped being true; kept with its end for the audit trail, never recalled. */
export async function endFact(write: FactWrite, factId: string, reason: string): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const rows = await tx
      .update(facts)
      .set({ status: 'deleted', validTo: sql`now()`, embedding: null, updatedAt: sql`now()` })
      .where(and(eq(facts.id, factId), eq(facts.userId, write.userId), eq(facts.status, 'active')))
      .returning({ id: facts.id, content: facts.content });
    if (rows.length === 0) return false;
    await tx.insert(factEvents).values({ factId, userId: write.userId, event: 'DELETE', oldContent: rows[0].content, newContent: reason, actor: write.actor, sourceMessageId: write.sourceMessageId });
    return true;
  });
}

/** NONE: already known; the new message is added to its provenance. */
export async function confirmFact(write: FactWrite, factId: string): Promise<void> {
  if (!write.sourceMessageId) return;
  await getDb()
    .update(facts)
    .set({ sourceMessageIds: sql`array_append(${facts.sourceMessageIds}, ${write.sourceMessageId}::uuid)`, updatedAt: sql`now()` })
    .where(and(eq(facts.id, factId), eq(facts.userId, write.userId), sql`not (${write.sourceMessageId}::uuid = any(${facts.sourceMessageIds}))`));
}

/** A person edits a fact by hand: new text and embedding, recorded as an EDIT event. */
export async function editFact(userId: string, factId: string, content: string, embedding: number[], actor: string): Promise<Fact | undefined> {
  return getDb().transaction(async (tx) => {
    const [old] = await tx.select().from(facts).where(and(eq(facts.id, factId), eq(facts.userId, userId)));
    if (!old) return undefined;
    const [row] = await tx
      .update(facts)
      .set({ content, value: content.toLowerCase(), embedding: old.status === 'active' ? embedding : null, updatedAt: sql`now()` })
      .where(eq(facts.id, factId))
      .returning();
    await tx.insert(factEvents).values({ factId, userId, event: 'EDIT', oldContent: old.content, newContent: content, actor });
    return row;
  });
}

/**
 * Removes facts outright, row, embedding and history together (a user's delete or "forget"), and
 * the recorded contexts that quoted them, so no inspector view keeps the text. Scoped to the user.
 */
export async function deleteFacts(userId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return getDb().transaction(async (tx) => {
    const rows = await tx
      .delete(facts)
      .where(and(eq(facts.userId, userId), inArray(facts.id, ids)))
      .returning({ id: facts.id });
    const keys = rows.map((r) => `%"fact:${r.id}"%`);
    if (keys.length > 0) {
      await tx.delete(turnRecords).where(and(eq(turnRecords.userId, userId), sql`${turnRecords.record}::text like any(${sql.param(keys)}::text[])`));
      await tx.delete(citations).where(and(eq(citations.userId, userId), sql`${citations.items}::text like any(${sql.param(keys)}::text[])`));
    }
    return rows.map((r) => r.id);
  });
}

export async function listFacts(userId: string, status?: Fact['status']): Promise<Fact[]> {
  return getDb()
    .select()
    .from(facts)
    .where(and(eq(facts.userId, userId), status ? eq(facts.status, status) : undefined))
    .orderBy(desc(facts.updatedAt));
}

export async function getFact(userId: string, factId: string): Promise<Fact | undefined> {
  const [row] = await getDb()
    .select()
    .from(facts)
    .where(and(eq(facts.id, factId), eq(facts.userId, userId)));
  return row;
}

export async function getFactHistory(userId: string, factId: string) {
  return getDb()
    .select()
    .from(factEvents)
    .where(and(eq(factEvents.factId, factId), eq(factEvents.userId, userId)))
    .orderBy(asc(factEvents.createdAt));
}

function factFromRow(row: Record<string, unknown>): Fact {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    id: row.id as string,
    userId: row.user_id as string,
    conversationId: (row.conversation_id as string | null) ?? null,
    slot: row.slot as string,
    content: row.content as string,
    value: row.value as string,
    status: row.status as Fact['status'],
    sourceMessageIds: parseUuidArray(row.source_message_ids),
    validFrom: date(row.valid_from)!,
    validTo: date(row.valid_to),
    supersededBy: (row.superseded_by as string | null) ?? null,
    embedding: null,
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
  };
}

/** postgres.js returns uuid[] as an array, or as '{a,b}' text through drizzle's execute. */
function parseUuidArray(value: unknown): string[] {
  if (Array.isArray(value)) return value as string[];
  if (typeof value === 'string') return value.replace(/^\{|\}$/gu, '').split(',').filter(Boolean);
  return [];
}
