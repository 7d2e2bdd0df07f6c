import { createHash } from 'node:crypto';
import { eq, getTableName } from 'drizzle-orm';
import { getDb } from './client';
import { citations, episodes, facts, retrievalCache, sessions, summaries, summaryVersions, turnRecords, users, type User } from './schema';

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The user behind a session token; a token seen for the first time becomes a new guest user. */
export async function resolveSessionUser(token: string): Promise<User> {
  const db = getDb();
  const tokenHash = hashSessionToken(token);
  const existing = await findSessionUser(tokenHash);
  if (existing) return existing;

  return db.transaction(async (tx) => {
    const [guest] = await tx.insert(users).values({ kind: 'guest' }).returning();
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

async function findSessionUser(tokenHash: string): Promise<User | undefined> {
  const [row] = await getDb()
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash));
  return row?.user;
}

/** Creates a guest user with no session: for imports, benchmarks and tests. */
export async function createGuestUser(): Promise<User> {
  const [user] = await getDb().insert(users).values({ kind: 'guest' }).returning();
  return user;
}

/**
 * Deletes every memory of one user (facts with their embeddings and history, episodes, summaries,
 * rewrite cache, and the recorded contexts and citations that quote them); conversations stay.
 */
export async function deleteAllMemory(userId: string): Promise<Record<string, number>> {
  return getDb().transaction(async (tx) => {
    const counts: Record<string, number> = {};
    for (const table of [facts, episodes, summaries, summaryVersions, retrievalCache, turnRecords, citations] as const) {
      const rows = await tx.delete(table).where(eq(table.userId, userId)).returning({ userId: table.userId });
      counts[getTableName(table)] = rows.length;
    }
    return counts;
  });
}

/** Deletes the user and, by cascade, everything they own. */
export async function deleteUser(userId: string): Promise<void> {
  await getDb().delete(users).where(eq(users.id, userId));
}
