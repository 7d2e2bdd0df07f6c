import { createHash } from 'node:crypto';
import { and, eq, getTableName, isNull, sql } from 'drizzle-orm';
import { getDb } from './client';
import { maxSeq } from './history';
import { conversations, episodes, facts, messages, retrievalCache, sessions, summaries, summaryVersions, users, type User } from './schema';

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The user behind a guest session token, if the token is known. */
export async function findSessionUser(token: string): Promise<User | undefined> {
  const [row] = await getDb()
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, hashSessionToken(token)));
  return row?.user;
}

/** The user behind a session token; a token seen for the first time becomes a new guest user. */
export async function resolveSessionUser(token: string, createdFrom: string | null = null): Promise<User> {
  const db = getDb();
  const tokenHash = hashSessionToken(token);
  const existing = await findSessionUser(token);
  if (existing) return existing;

  return db.transaction(async (tx) => {
    const [guest] = await tx.insert(users).values({ kind: 'guest', createdFrom }).returning();
    const inserted = await tx
      .insert(sessions)
      .values({ tokenHash, userId: guest.id })
      .onConflictDoNothing()
      .returning({ userId: sessions.userId });
    if (inserted.length > 0) return guest;
    // A concurrent first request for the same cookie won the race: use its user, drop ours.
    await tx.delete(users).where(eq(users.id, guest.id));
    const [winner] = await tx
      .select({ user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, tokenHash));
    return winner.user;
  });
}

/** Guests created in the last hour, from one client address and in all. */
export async function recentGuests(createdFrom: string | null): Promise<{ fromAddress: number; total: number }> {
  const [row] = await getDb()
    .select({
      fromAddress: sql<number>`count(*) filter (where ${users.createdFrom} is not distinct from ${createdFrom})::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(users)
    .where(and(eq(users.kind, 'guest'), sql`${users.createdAt} > now() - interval '1 hour'`));
  return row;
}

/**
 * A new account takes over the guest behind the browser's cookie (conversations and memory stay
 * theirs); without a guest (or one already someone's account) the member starts afresh.
 */
export async function adoptAccount(account: { authUserId: string; email: string; name: string; guestToken?: string }): Promise<User> {
  const guest = account.guestToken ? await findSessionUser(account.guestToken) : undefined;
  const values = {
    kind: 'member' as const,
    authUserId: account.authUserId,
    email: account.email.toLowerCase(),
    displayName: account.name || null,
  };
  if (guest && guest.kind === 'guest' && !guest.authUserId) {
    const member = await getDb().transaction(async (tx) => {
      const [row] = await tx.update(users).set(values).where(and(eq(users.id, guest.id), isNull(users.authUserId))).returning();
      // The guest cookie no longer opens this user: only the account does (signed out, the browser is a new guest).
      if (row) await tx.delete(sessions).where(eq(sessions.userId, row.id));
      return row;
    });
    if (member) return member;
  }
  const [member] = await getDb().insert(users).values(values).onConflictDoNothing({ target: users.authUserId }).returning();
  return member ?? (await memberOf(account.authUserId))!;
}

export async function memberOf(authUserId: string): Promise<User | undefined> {
  const [row] = await getDb().select().from(users).where(eq(users.authUserId, authUserId));
  return row;
}

export type StaffSource = 'STAFF_EMAILS' | 'grant';

/** Sets a member's role (and how staff became staff); returns the member as they were, or undefined. */
export async function setRole(member: { id: string } | { email: string }, role: User['role'], via: StaffSource | null): Promise<User | undefined> {
  const which = 'id' in member ? eq(users.id, member.id) : eq(users.email, member.email.trim().toLowerCase());
  return getDb().transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(and(which, eq(users.kind, 'member'))).for('update');
    if (!before) return undefined;
    await tx.update(users).set({ role, staffVia: role === 'staff' ? via : null }).where(eq(users.id, before.id));
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
  const count = async (table: typeof MEMORY_TABLES[number] | typeof conversations | typeof messages) => {
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
 * floor, so nothing said before now is indexed, summarised or mined for facts again. Conversations
 * and messages stay.
 */
export async function deleteAllMemory(userId: string): Promise<Record<string, number>> {
  return getDb().transaction(async (tx) => {
    const counts: Record<string, number> = {};
    for (const table of MEMORY_TABLES) {
      const rows = await tx.delete(table).where(eq(table.userId, userId)).returning({ userId: table.userId });
      counts[getTableName(table)] = rows.length;
    }
    await tx.update(users).set({ memoryFloorSeq: await maxSeq(tx, { userId }) }).where(eq(users.id, userId));
    return counts;
  });
}

export async function memoryFloor(userId: string): Promise<number> {
  const [row] = await getDb().select({ floor: users.memoryFloorSeq }).from(users).where(eq(users.id, userId));
  return row?.floor ?? 0;
}

/** Deletes the user and, by cascade, everything they own. */
export async function deleteUser(userId: string): Promise<void> {
  await getDb().delete(users).where(eq(users.id, userId));
}
