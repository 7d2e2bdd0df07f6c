import { and, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { getDb } from './client';
import { conversations, jobs, users, type Conversation, type Job, type User } from './schema';

// Staff queries cross users on purpose; lib/staff.ts checks the role and audits every read.

export async function searchUsers(q: string, limit = 50): Promise<Array<User & { conversations: number; facts: number }>> {
  const term = q.trim();
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu.test(term);
  const rows = await getDb()
    .select({
      user: users,
      // Named with its table: inside the subquery a bare "id" would be the conversation's or fact's own.
      conversations: sql<number>`(select count(*)::int from conversations c where c.user_id = "users"."id")`,
      facts: sql<number>`(select count(*)::int from facts f where f.user_id = "users"."id" and f.status = 'active')`,
    })
    .from(users)
    .where(term === '' ? undefined : isId ? eq(users.id, term) : or(ilike(users.email, `%${term.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`), ilike(users.displayName, `%${term}%`)))
    .orderBy(desc(users.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r.user, conversations: r.conversations, facts: r.facts }));
}

export async function getUser(id: string): Promise<User | undefined> {
  const [row] = await getDb().select().from(users).where(eq(users.id, id));
  return row;
}

/** A conversation by id alone, with its owner: staff reach any. */
export async function conversationById(id: string): Promise<Conversation | undefined> {
  const [row] = await getDb().select().from(conversations).where(eq(conversations.id, id));
  return row;
}

export async function ownerOfMessage(id: string): Promise<string | undefined> {
  const rows = await getDb().execute<{ user_id: string }>(sql`select user_id from messages where id = ${id}`);
  return rows[0]?.user_id;
}

export async function ownerOfFact(id: string): Promise<string | undefined> {
  const rows = await getDb().execute<{ user_id: string }>(sql`select user_id from facts where id = ${id}`);
  return rows[0]?.user_id;
}

export async function listJobs(filter: { status?: Job['status']; userId?: string }, limit = 100): Promise<Job[]> {
  return getDb()
    .select()
    .from(jobs)
    .where(and(filter.status ? eq(jobs.status, filter.status) : undefined, filter.userId ? eq(jobs.userId, filter.userId) : undefined))
    .orderBy(desc(jobs.updatedAt))
    .limit(limit);
}

export async function getJob(id: string): Promise<Job | undefined> {
  const [row] = await getDb().select().from(jobs).where(eq(jobs.id, id));
  return row;
}
