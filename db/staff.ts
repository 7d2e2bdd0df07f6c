import 'server-only';
import { and, desc, eq, getTableColumns, ilike, lt, or, sql } from 'drizzle-orm';
import { getDb } from './client';
import { type Conversation, conversations, type Job, jobs, type User, users } from './schema';

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
    .where(term === '' ? undefined : isId ? ownsId(term) : or(ilike(users.email, contains(term)), ilike(users.displayName, contains(term))))
    .orderBy(desc(users.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r.user, conversations: r.conversations, facts: r.facts }));
}

/** `%term%` for ILIKE, with the pattern characters in the term taken literally. */
const contains = (term: string) => `%${term.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;

/**
 * The user with this id, or who owns the conversation or message with it: a guest has no email,
 * but can read their conversation's id from its address (/c/<id>).
 */
const ownsId = (id: string) =>
  or(
    eq(users.id, id),
    sql`${users.id} in (select user_id from conversations where id = ${id} union all select user_id from messages where id = ${id})`,
  );

/** The user with this email, whatever its case (a member's email is theirs alone). */
export async function userIdByEmail(email: string): Promise<string | undefined> {
  const [row] = await getDb()
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .orderBy(desc(users.createdAt))
    .limit(1);
  return row?.id;
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
  return (await locateMessage(id))?.userId;
}

/** Whose a message is and where it lives, whoever owns it. */
export async function locateMessage(
  id: string,
): Promise<{ id: string; userId: string; conversationId: string; role: 'user' | 'assistant' } | undefined> {
  const rows = await getDb().execute<{ user_id: string; conversation_id: string; role: 'user' | 'assistant' }>(
    sql`select user_id, conversation_id, role from messages where id = ${id}`,
  );
  const row = rows[0];
  return row && { id, userId: row.user_id, conversationId: row.conversation_id, role: row.role };
}

export async function ownerOfFact(id: string): Promise<string | undefined> {
  const rows = await getDb().execute<{ user_id: string }>(sql`select user_id from facts where id = ${id}`);
  return rows[0]?.user_id;
}

/**
 * Jobs newest first (by enqueue order), a page at a time: `beforeSeq` is the last `seq` of the page
 * before. Each with its conversation's title and its owner's email, for the console to name them.
 */
export async function listJobs(filter: { status?: Job['status']; userId?: string; beforeSeq?: number }, limit = 100) {
  return getDb()
    .select({ ...getTableColumns(jobs), conversationTitle: conversations.title, userEmail: users.email, userKind: users.kind })
    .from(jobs)
    .leftJoin(conversations, eq(conversations.id, jobs.conversationId))
    .leftJoin(users, eq(users.id, jobs.userId))
    .where(
      and(
        filter.status ? eq(jobs.status, filter.status) : undefined,
        filter.userId ? eq(jobs.userId, filter.userId) : undefined,
        filter.beforeSeq ? lt(jobs.seq, filter.beforeSeq) : undefined,
      ),
    )
    .orderBy(desc(jobs.seq))
    .limit(limit);
}

/** How many jobs there are in each status (of one user, or of everyone). */
export async function countJobs(userId?: string): Promise<Record<Job['status'], number>> {
  const rows = await getDb()
    .select({ status: jobs.status, count: sql<number>`count(*)::int` })
    .from(jobs)
    .where(userId ? eq(jobs.userId, userId) : undefined)
    .groupBy(jobs.status);
  const counts = { pending: 0, running: 0, done: 0, failed: 0, dead: 0 };
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

export async function getJob(id: string): Promise<Job | undefined> {
  const [row] = await getDb().select().from(jobs).where(eq(jobs.id, id));
  return row;
}
