import 'server-only';
import { and, eq, getTableName, inArray, lte, sql } from 'drizzle-orm';
import { erasePayloadsOf } from './audit';
import { getDb } from './client';
import { maxSeq } from './history';
import type { Executor } from './provenance';
import {
  authUsers,
  conversations,
  episodes,
  facts,
  messages,
  retrievalCache,
  summaries,
  summaryVersions,
  type User,
  users,
} from './schema';

/** The app's user behind a better-auth account (guest or member), if it has one yet. */
export async function userOfAccount(authUserId: string): Promise<User | undefined> {
  const [row] = await getDb().select().from(users).where(eq(users.authUserId, authUserId));
  return row;
}

/** The guest behind an anonymous account, made once (a concurrent second call gets the same row). */
export async function createGuest(authUserId: string, createdFrom: string | null): Promise<User> {
  const [guest] = await getDb()
    .insert(users)
    .values({ kind: 'guest', authUserId, createdFrom })
    .onConflictDoNothing({ target: users.authUserId })
    .returning();
  return guest ?? (await userOfAccount(authUserId))!;
}

/** Guests made from one client address in the last hour. */
export async function guestsFromAddress(createdFrom: string): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.kind, 'guest'), eq(users.createdFrom, createdFrom), sql`${users.createdAt} > now() - interval '1 hour'`));
  return row.n;
}

type Account = { authUserId: string; email: string; name: string };

const memberValues = (account: Account) => ({
  kind: 'member' as const,
  authUserId: account.authUserId,
  email: account.email.toLowerCase(),
  displayName: account.name || null,
});

/** The member row of an account made outside a guest's browser (or before it had a row). */
export async function adoptAccount(account: Account): Promise<User> {
  const [member] = await getDb().insert(users).values(memberValues(account)).onConflictDoNothing({ target: users.authUserId }).returning();
  return member ?? (await userOfAccount(account.authUserId))!;
}

/** A guest who signs up becomes the new member: same user, so conversations and memory stay theirs. */
export async function promoteGuest(guestId: string, account: Account): Promise<User | undefined> {
  const [member] = await getDb()
    .update(users)
    .set(memberValues(account))
    .where(and(eq(users.id, guestId), eq(users.kind, 'guest')))
    .returning();
  return member;
}

export type StaffSource = 'STAFF_EMAILS' | 'grant';

/** Sets a member's role (and how staff became staff); returns the member as they were, or undefined. */
export async function setRole(
  member: { id: string } | { email: string },
  role: User['role'],
  via: StaffSource | null,
): Promise<User | undefined> {
  const which = 'id' in member ? eq(users.id, member.id) : eq(users.email, member.email.trim().toLowerCase());
  return getDb().transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(users)
      .where(and(which, eq(users.kind, 'member')))
      .for('update');
    if (!before) return undefined;
    await tx
      .update(users)
      .set({ role, staffVia: role === 'staff' ? via : null })
      .where(eq(users.id, before.id));
    return before;
  });
}

/** Creates a guest user with no session: for imports, benchmarks and tests. */
export async function createGuestUser(): Promise<User> {
  const [user] = await getDb().insert(users).values({ kind: 'guest' }).returning();
  return user;
}

/** The tables "forget everything" empties for a user (the conversations and their messages stay). */
const MEMORY_TABLES = [facts, episodes, summaries, summaryVersions, retrievalCache] as const;

/** What "forget everything" would remove now, and what stays: the numbers its dialog shows. */
export async function memoryCounts(userId: string): Promise<{ removed: Record<string, number>; kept: Record<string, number> }> {
  const count = async (table: (typeof MEMORY_TABLES)[number] | typeof conversations | typeof messages) => {
    const [row] = await getDb().select({ n: sql<number>`count(*)::int` }).from(table).where(eq(table.userId, userId));
    return row.n;
  };
  const removed: Record<string, number> = {};
  for (const table of MEMORY_TABLES) removed[getTableName(table)] = await count(table);
  return { removed, kept: { conversations: await count(conversations), messages: await count(messages) } };
}

/**
 * Deletes every memory of one user (facts with their embeddings and history, episodes, summaries
 * and their versions, rewrite cache, and the provenance of all of them) and sets the user's memory
 * floor, so nothing said before now is indexed, summarised or mined for facts again; the audit
 * log's copies of the user's words go too. Conversations and messages stay. `before` runs first in the same transaction (to keep what goes, for an undo).
 */
export async function deleteAllMemory(userId: string, before?: (tx: Executor) => Promise<void>): Promise<Record<string, number>> {
  return getDb().transaction(async (tx) => {
    // First, the user's row: a job writing memory holds it shared (see `forgottenAmong`), so it
    // either commits before the deletes below (which then find its rows) or sees the new floor.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    await before?.(tx);
    const counts: Record<string, number> = {};
    for (const table of MEMORY_TABLES) {
      const rows = await tx.delete(table).where(eq(table.userId, userId)).returning({ userId: table.userId });
      counts[getTableName(table)] = rows.length;
    }
    // The audit log keeps its entries about this memory, not the words.
    await erasePayloadsOf(tx, userId);
    await tx
      .update(users)
      .set({ memoryFloorSeq: await maxSeq(tx, { userId }) })
      .where(eq(users.id, userId));
    return counts;
  });
}

/**
 * In the transaction that writes memory derived from these messages: those of them from before the
 * user's memory floor (forgotten by "forget everything"). The floor is held until commit, so a
 * "forget everything" running at the same time waits for this write (and deletes what it wrote),
 * or this write sees its floor.
 */
export async function forgottenAmong(tx: Executor, userId: string, messageIds: string[]): Promise<Set<string>> {
  const [user] = await tx.select({ floor: users.memoryFloorSeq }).from(users).where(eq(users.id, userId)).for('share');
  if (messageIds.length === 0 || !user || user.floor === 0) return new Set();
  const rows = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.userId, userId), inArray(messages.id, messageIds), lte(messages.seq, user.floor)));
  return new Set(rows.map((r) => r.id));
}

export async function memoryFloor(userId: string): Promise<number> {
  const [row] = await getDb().select({ floor: users.memoryFloorSeq }).from(users).where(eq(users.id, userId));
  return row?.floor ?? 0;
}

/** Deletes the user and, by cascade, everything they own, with their sign-in (account and sessions). */
export async function deleteUser(userId: string): Promise<void> {
  await getDb().transaction(async (tx) => {
    const [gone] = await tx.delete(users).where(eq(users.id, userId)).returning({ authUserId: users.authUserId });
    if (gone?.authUserId) await tx.delete(authUsers).where(eq(authUsers.id, gone.authUserId));
  });
}
