import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from './client';
import {
  auditPayloads,
  citations,
  conversations,
  episodes,
  type Fact,
  factEvents,
  facts,
  jobs,
  memorySources,
  messageRedactions,
  messages,
  retrievalCache,
  summaries,
  summaryVersions,
  turnRecords,
  users,
} from './schema';

/** Every table whose rows belong to one user, moved whole from the guest to the member. */
const OWNED_TABLES = [
  auditPayloads,
  conversations,
  messages,
  summaries,
  summaryVersions,
  episodes,
  facts,
  factEvents,
  retrievalCache,
  turnRecords,
  citations,
  jobs,
  memorySources,
  messageRedactions,
] as const;

export type GuestMerge = {
  /** The guest's facts now the member's, each with a MOVE event. */
  movedFacts: string[];
  /** Facts that were current and are now superseded by the other side's fact in the same single-valued slot. */
  superseded: Array<{ factId: string; by: string; slot: string }>;
  conversations: number;
};

/**
 * A guest who signs in to an existing account: everything the guest owns becomes the member's, in
 * one transaction, and the guest user is deleted. Where both have a current fact in a slot that
 * holds one value at a time (`singleValuedSlots`: name, home, work, diet), the newer statement
 * (later `valid_from`; a tie goes to the member) stays current and the other is superseded by it,
 * kept in the history with an UPDATE event. Every fact that moves gets a MOVE event naming the guest.
 */
export async function mergeGuestInto(
  guestId: string,
  memberId: string,
  singleValuedSlots: ReadonlySet<string>,
  actor: string,
): Promise<GuestMerge> {
  return getDb().transaction(async (tx) => {
    const [guest] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, guestId), eq(users.kind, 'guest')))
      .for('update');
    if (!guest) return { movedFacts: [], superseded: [], conversations: 0 };
    const activeIn = (userId: string) =>
      tx
        .select()
        .from(facts)
        .where(and(eq(facts.userId, userId), eq(facts.status, 'active'), inArray(facts.slot, [...singleValuedSlots])));
    const memberCurrent = new Map((await activeIn(memberId)).map((fact) => [fact.slot, fact]));
    const superseded: GuestMerge['superseded'] = [];
    for (const guestFact of await activeIn(guestId)) {
      const memberFact = memberCurrent.get(guestFact.slot);
      if (!memberFact) continue;
      const [loser, winner] = guestFact.validFrom > memberFact.validFrom ? [memberFact, guestFact] : [guestFact, memberFact];
      await supersede(tx, loser, winner, memberId, actor);
      superseded.push({ factId: loser.id, by: winner.id, slot: loser.slot });
    }

    const moved = await tx.select({ id: facts.id, content: facts.content }).from(facts).where(eq(facts.userId, guestId));
    const movedConversations = await tx.select({ id: conversations.id }).from(conversations).where(eq(conversations.userId, guestId));
    for (const table of OWNED_TABLES) await tx.update(table).set({ userId: memberId }).where(eq(table.userId, guestId));
    // The guest's memories may take the member past the size searched through the HNSW graph (db/schema.ts inGraph).
    await tx.execute(sql`select memlens_grow_graph('episodes', ${memberId}), memlens_grow_graph('facts', ${memberId})`);
    if (moved.length > 0) {
      await tx.insert(factEvents).values(
        moved.map((fact) => ({
          factId: fact.id,
          userId: memberId,
          event: 'MOVE' as const,
          oldContent: fact.content,
          newContent: `from guest ${guestId}`,
          actor,
        })),
      );
    }
    // What the guest chose to forget stays forgotten.
    await tx
      .update(users)
      .set({ memoryFloorSeq: sql`greatest(${users.memoryFloorSeq}, ${guest.memoryFloorSeq})` })
      .where(eq(users.id, memberId));
    await tx.delete(users).where(eq(users.id, guestId));
    return { movedFacts: moved.map((fact) => fact.id), superseded, conversations: movedConversations.length };
  });
}

type Tx = Parameters<Parameters<ReturnType<typeof getDb>['transaction']>[0]>[0];

/** As db/facts.ts supersedeFact, for a replacement that already exists: the old fact ends where the new one began. */
async function supersede(tx: Tx, loser: Fact, winner: Fact, memberId: string, actor: string): Promise<void> {
  await tx
    .update(facts)
    .set({
      status: 'superseded',
      validTo: sql`greatest(${winner.validFrom.toISOString()}::timestamptz, ${facts.validFrom})`,
      supersededBy: winner.id,
      embedding: null,
      updatedAt: sql`now()`,
    })
    .where(eq(facts.id, loser.id));
  await tx
    .insert(factEvents)
    .values({ factId: loser.id, userId: memberId, event: 'UPDATE', oldContent: loser.content, newContent: winner.content, actor });
}
