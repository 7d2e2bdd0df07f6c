import 'server-only';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from './client';
import { type HybridSearch, hybridSearch, type SearchHit } from './hybrid-search';
import { type Executor, factSources, linkSources, type Span } from './provenance';
import { type Fact, factEvents, facts, memorySources } from './schema';
import { type LexicalQuery, searchVector } from './search-vector';
import { forgottenAmong } from './users';

// Every function takes the signed-in user's id and filters by it.

/** A recalled fact with the messages it came from and whether it replaced an older one. */
export type FactHit = SearchHit & { fact: Fact; sources: Span[]; replaces: boolean };

export type FactQuery = {
  userId: string;
  embedding: number[];
  keywords: LexicalQuery;
  k: number;
  minSimilarity?: number;
  /** Option: leave out facts learned in this conversation. */
  excludeConversationId?: string;
};

/** The hybrid search recall runs over the user's active facts (also scoring one fact for it). */
export function factSearch(query: FactQuery): HybridSearch {
  return {
    table: 'facts',
    userId: query.userId,
    scope: sql`e.user_id = ${query.userId} and e.status = 'active'
      ${query.excludeConversationId ? sql`and e.conversation_id is distinct from ${query.excludeConversationId}` : sql``}`,
    embedding: query.embedding,
    keywords: query.keywords,
    k: query.k,
    minSimilarity: query.minSimilarity ?? -1,
  };
}

/**
 * Hybrid recall over the user's ACTIVE facts; superseded and deleted facts have no embedding and are
 * filtered out. Each found fact carries its sources (oldest link first) and whether it replaced an
 * older one, read in the same statement.
 */
export async function searchFacts(query: FactQuery): Promise<FactHit[]> {
  const hits = await hybridSearch({
    ...factSearch(query),
    annotate: sql`jsonb_build_object(
      'sources', (select coalesce(jsonb_agg(jsonb_build_object('messageId', s.message_id, 'spanStart', s.span_start, 'spanEnd', s.span_end) order by s.created_at), '[]')
                  from memory_sources s where s.user_id = e.user_id and s.fact_id = e.id),
      'replaces', exists (select 1 from facts r where r.user_id = e.user_id and r.superseded_by = e.id))`,
  });
  return hits.map(({ row, ...ranks }) => ({
    ...ranks,
    fact: factFromRow(row),
    sources: row.sources as Span[],
    replaces: row.replaces as boolean,
  }));
}

/** Candidates for reconciliation: the active facts of the given slots, plus the most similar others. */
export async function findRelatedActiveFacts(
  userId: string,
  slots: string[],
  embedding: number[],
  keywords: LexicalQuery,
): Promise<Fact[]> {
  const sameSlot = await getDb()
    .select()
    .from(facts)
    .where(and(eq(facts.userId, userId), eq(facts.status, 'active'), inArray(facts.slot, slots)));
  const similar = await searchFacts({ userId, embedding, keywords, k: 5 });
  const byId = new Map(sameSlot.map((f) => [f.id, f]));
  for (const hit of similar) byId.set(hit.fact.id, hit.fact);
  return [...byId.values()];
}

export type FactWrite = {
  userId: string;
  conversationId: string | null;
  /** The message that stated it, and where in that message. */
  source: { messageId: string; spanStart: number; spanEnd: number } | null;
  actor: string;
};

/** `indexTerms`: the content's index terms (lib/text/bilingual.ts indexTerms), for the lexical index. */
export type NewFact = { slot: string; content: string; value: string; embedding: number[]; indexTerms: string[]; validFrom?: Date };

function factRow(write: FactWrite, fact: NewFact) {
  return {
    userId: write.userId,
    conversationId: write.conversationId,
    slot: fact.slot,
    content: fact.content,
    value: fact.value,
    embedding: fact.embedding,
    searchVector: searchVector(fact.content, fact.indexTerms),
    ...(fact.validFrom ? { validFrom: fact.validFrom } : {}),
  };
}

async function linkSource(executor: Executor, write: FactWrite, factId: string): Promise<void> {
  if (write.source) await linkSources(executor, [{ userId: write.userId, factId, ...write.source }]);
}

const sourceMessageId = (write: FactWrite) => write.source?.messageId ?? null;

/** Runs in the transaction that learned `fact` (and ended `replaced`), to record the change with it. */
export type OnFactWritten = (tx: Executor, written: { fact: Fact; replaced?: Fact }) => Promise<void>;

/** A fact learned from a message "forget everything" took meanwhile is not learned (answers undefined). */
const sourceForgotten = async (tx: Executor, write: FactWrite) =>
  write.source !== null && (await forgottenAmong(tx, write.userId, [write.source.messageId])).size > 0;

/** ADD; a fact with a source is not added when "forget everything" took that message meanwhile. */
export async function addFact(write: FactWrite & { source: null }, fact: NewFact, also?: OnFactWritten): Promise<Fact>;
export async function addFact(write: FactWrite, fact: NewFact, also?: OnFactWritten): Promise<Fact | undefined>;
export async function addFact(write: FactWrite, fact: NewFact, also?: OnFactWritten): Promise<Fact | undefined> {
  return getDb().transaction(async (tx) => {
    if (await sourceForgotten(tx, write)) return undefined;
    const [row] = await tx.insert(facts).values(factRow(write, fact)).returning();
    await linkSource(tx, write, row.id);
    await tx.insert(factEvents).values({
      factId: row.id,
      userId: write.userId,
      event: 'ADD',
      newContent: fact.content,
      actor: write.actor,
      sourceMessageId: sourceMessageId(write),
    });
    await also?.(tx, { fact: row });
    return row;
  });
}

/** UPDATE: the old fact ends (kept, superseded, no longer searchable) and the new one starts; not when its source was forgotten meanwhile. */
export async function supersedeFact(write: FactWrite, oldFactId: string, fact: NewFact, also?: OnFactWritten): Promise<Fact | undefined> {
  return getDb().transaction(async (tx) => {
    if (await sourceForgotten(tx, write)) return undefined;
    const [old] = await tx
      .select()
      .from(facts)
      .where(and(eq(facts.id, oldFactId), eq(facts.userId, write.userId), eq(facts.status, 'active')));
    if (!old) return undefined;
    // The newer statement starts when it says it started, but never before the old one began:
    // "since October" said after a fact recorded in November ends that fact the day it began.
    const validFrom = new Date(Math.max((fact.validFrom ?? new Date()).getTime(), old.validFrom.getTime()));
    const [row] = await tx
      .insert(facts)
      .values(factRow(write, { ...fact, validFrom }))
      .returning();
    await linkSource(tx, write, row.id);
    await tx
      .update(facts)
      .set({ status: 'superseded', validTo: validFrom, supersededBy: row.id, embedding: null, updatedAt: sql`now()` })
      .where(eq(facts.id, old.id));
    await tx.insert(factEvents).values([
      {
        factId: old.id,
        userId: write.userId,
        event: 'UPDATE',
        oldContent: old.content,
        newContent: fact.content,
        actor: write.actor,
        sourceMessageId: sourceMessageId(write),
      },
      {
        factId: row.id,
        userId: write.userId,
        event: 'ADD',
        oldContent: old.content,
        newContent: fact.content,
        actor: write.actor,
        sourceMessageId: sourceMessageId(write),
      },
    ]);
    await also?.(tx, { fact: row, replaced: old });
    return row;
  });
}

/** DELETE decision: the fact stopped being true; kept with its end for the audit trail, never recalled. */
export async function endFact(write: FactWrite, factId: string, reason: string): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const rows = await tx
      .update(facts)
      .set({ status: 'deleted', validTo: sql`greatest(now(), ${facts.validFrom})`, embedding: null, updatedAt: sql`now()` })
      .where(and(eq(facts.id, factId), eq(facts.userId, write.userId), eq(facts.status, 'active')))
      .returning({ id: facts.id, content: facts.content });
    if (rows.length === 0) return false;
    await tx.insert(factEvents).values({
      factId,
      userId: write.userId,
      event: 'DELETE',
      oldContent: rows[0].content,
      newContent: reason,
      actor: write.actor,
      sourceMessageId: sourceMessageId(write),
    });
    return true;
  });
}

/** NONE: already known; the new message is added to its provenance. */
export async function confirmFact(write: FactWrite, factId: string): Promise<void> {
  const source = write.source;
  if (!source) return;
  await getDb().transaction(async (tx) => {
    const [fact] = await tx
      .select({ id: facts.id })
      .from(facts)
      .where(and(eq(facts.id, factId), eq(facts.userId, write.userId)));
    const [known] = await tx
      .select({ id: memorySources.id })
      .from(memorySources)
      .where(and(eq(memorySources.factId, factId), eq(memorySources.messageId, source.messageId)));
    if (fact && !known) {
      await linkSource(tx, write, factId);
      await tx.update(facts).set({ updatedAt: sql`now()` }).where(eq(facts.id, factId));
    }
  });
}

/**
 * Facts whose every source was edited or removed: no longer stated anywhere, so they end (kept,
 * never recalled), current or already replaced. Returns the ids of those that were current.
 */
export async function endUnsupportedFacts(
  executor: Executor,
  userId: string,
  factIds: string[],
  reason: string,
  actor: string,
): Promise<string[]> {
  if (factIds.length === 0) return [];
  const ended = await executor
    .update(facts)
    .set({
      status: 'deleted',
      validTo: sql`coalesce(${facts.validTo}, greatest(now(), ${facts.validFrom}))`,
      embedding: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(facts.userId, userId), inArray(facts.id, factIds), inArray(facts.status, ['active', 'superseded'])))
    .returning({ id: facts.id, content: facts.content, wasActive: sql<boolean>`${facts.supersededBy} is null` });
  if (ended.length === 0) return [];
  await executor
    .insert(factEvents)
    .values(ended.map((f) => ({ factId: f.id, userId, event: 'DELETE' as const, oldContent: f.content, newContent: reason, actor })));
  return ended.filter((f) => f.wasActive).map((f) => f.id);
}

/** The facts these facts replaced (whatever their status now). */
export async function factsReplacedBy(executor: Executor, userId: string, factIds: string[]): Promise<Fact[]> {
  if (factIds.length === 0) return [];
  return executor
    .select()
    .from(facts)
    .where(and(eq(facts.userId, userId), inArray(facts.supersededBy, factIds)));
}

/** A superseded fact whose replacement was taken back is current again. */
export async function reactivateFact(userId: string, factId: string, embedding: number[], actor: string): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(facts)
      .set({ status: 'active', validTo: null, supersededBy: null, embedding, updatedAt: sql`now()` })
      .where(and(eq(facts.id, factId), eq(facts.userId, userId), eq(facts.status, 'superseded')))
      .returning({ content: facts.content });
    if (row)
      await tx
        .insert(factEvents)
        .values({ factId, userId, event: 'UPDATE', newContent: row.content, oldContent: 'its replacement was taken back', actor });
  });
}

/** A person edits a fact by hand: new text and embedding, recorded as an EDIT event. Returns the old and new rows. */
export async function editFact(
  executor: Executor,
  userId: string,
  factId: string,
  content: string,
  indexTerms: string[],
  embedding: number[],
  actor: string,
): Promise<{ old: Fact; fact: Fact } | undefined> {
  const [old] = await executor
    .select()
    .from(facts)
    .where(and(eq(facts.id, factId), eq(facts.userId, userId)));
  if (!old) return undefined;
  const [fact] = await executor
    .update(facts)
    .set({
      content,
      value: content.toLowerCase(),
      searchVector: searchVector(content, indexTerms),
      embedding: old.status === 'active' ? embedding : null,
      updatedAt: sql`now()`,
    })
    .where(eq(facts.id, factId))
    .returning();
  await executor.insert(factEvents).values({ factId, userId, event: 'EDIT', oldContent: old.content, newContent: content, actor });
  return { old, fact };
}

/** Removes facts outright: row, embedding, history and provenance together. Scoped to the user. */
export async function deleteFacts(
  executor: Executor,
  userId: string,
  ids: string[],
): Promise<Array<Pick<Fact, 'id' | 'content' | 'value'>>> {
  if (ids.length === 0) return [];
  return executor
    .delete(facts)
    .where(and(eq(facts.userId, userId), inArray(facts.id, ids)))
    .returning({ id: facts.id, content: facts.content, value: facts.value });
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

/** Facts as the API shows them: no embedding or index terms; the messages each came from, with the span that stated it. */
export async function withSources(userId: string, rows: Fact[]) {
  const sources = await factSources(
    userId,
    rows.map((f) => f.id),
  );
  return rows.map(({ embedding: _embedding, searchVector: _searchVector, inGraph: _inGraph, ...fact }) => {
    const spans = sources.get(fact.id) ?? [];
    return { ...fact, sources: spans, sourceMessageIds: [...new Set(spans.map((s) => s.messageId))] };
  });
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
    validFrom: date(row.valid_from)!,
    validTo: date(row.valid_to),
    supersededBy: (row.superseded_by as string | null) ?? null,
    embedding: null,
    searchVector: '',
    inGraph: row.in_graph === true,
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
  };
}
