import 'server-only';
import { type AnyColumn, and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { getDb } from './client';
import { conversations, episodes, type Fact, facts, messages } from './schema';

// Queries of the user's Memory page (/memory). Every function takes the signed-in user's id and
// filters by it; none returns an embedding.

/** `%`, `_` and `\` match themselves in a LIKE pattern built from what the user typed. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive substring match (so Chinese, which has no spaces between words, matches too). */
const contains = (column: AnyColumn | SQL, q: string) => sql`${column} ilike ${likePattern(q)}`;

type FactFilter = { status?: Fact['status']; q?: string };

const factsMatching = (userId: string, filter: FactFilter) =>
  and(
    eq(facts.userId, userId),
    filter.status ? eq(facts.status, filter.status) : undefined,
    filter.q ? contains(facts.content, filter.q) : undefined,
  );

/** The user's facts, newest change first, optionally of one status and containing `q`. */
export async function searchFactsByText(userId: string, filter: FactFilter): Promise<Fact[]> {
  return getDb().select().from(facts).where(factsMatching(userId, filter)).orderBy(desc(facts.updatedAt), desc(facts.id));
}

/** A page position: the last row's time at full precision (as Postgres prints it) and id. */
export type PageCursor = { at: string; id: string };

/**
 * The user's facts as the Memory page lists them: one item per text and status, since one sentence
 * gives a fact per kind ("My wife and I moved to Lisbon": family and home) and the person said it once.
 * Items newest change first, one page after `cursor` (an item's time is its newest fact's, its id that
 * fact's); `total` counts the items that match. Each item's facts come newest change first.
 */
export async function listFactsPage(
  userId: string,
  options: FactFilter & { cursor?: PageCursor; limit: number },
): Promise<{ items: Fact[][]; next: PageCursor | null; total: number }> {
  const matches = factsMatching(userId, options);
  const grouped = getDb()
    .select({
      lead: sql<string>`(array_agg(${facts.id} order by ${facts.updatedAt} desc, ${facts.id} desc))[1]`.as('lead'),
      ids: sql<string[]>`array_agg(${facts.id}::text)`.as('ids'),
      at: sql<Date>`max(${facts.updatedAt})`.as('at'),
    })
    .from(facts)
    .where(matches)
    .groupBy(facts.status, facts.content)
    .as('grouped');
  const after = options.cursor
    ? sql`(${grouped.at}, ${grouped.lead}) < (${options.cursor.at}::timestamptz, ${options.cursor.id}::uuid)`
    : undefined;
  const rows = await getDb()
    .select({ lead: grouped.lead, ids: grouped.ids, at: sql<string>`${grouped.at}::text` })
    .from(grouped)
    .where(after)
    .orderBy(desc(grouped.at), desc(grouped.lead))
    .limit(options.limit + 1);
  const [{ total }] = await getDb()
    .select({ total: sql<number>`count(*)::int` })
    .from(
      getDb()
        .select({ one: sql`1`.as('one') })
        .from(facts)
        .where(matches)
        .groupBy(facts.status, facts.content)
        .as('items'),
    );
  const page = rows.slice(0, options.limit);
  const ids = page.flatMap((row) => row.ids);
  const byId = new Map(
    ids.length === 0
      ? []
      : (
          await getDb()
            .select()
            .from(facts)
            .where(and(eq(facts.userId, userId), inArray(facts.id, ids)))
            .orderBy(desc(facts.updatedAt), desc(facts.id))
        ).map((fact) => [fact.id, fact]),
  );
  const members = [...byId.values()];
  const last = page.at(-1);
  return {
    items: page.map((row) => members.filter((fact) => row.ids.includes(fact.id))),
    next: rows.length > options.limit && last ? { at: last.at, id: last.lead } : null,
    total,
  };
}

/** An active fact of the user with exactly this text (case aside), if any. */
export async function findActiveFactByContent(userId: string, content: string): Promise<Fact | undefined> {
  const [row] = await getDb()
    .select()
    .from(facts)
    .where(and(eq(facts.userId, userId), eq(facts.status, 'active'), sql`lower(${facts.content}) = lower(${content})`))
    .limit(1);
  return row;
}

export type MessagePlace = {
  messageId: string;
  conversationId: string;
  conversationTitle: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: Date;
};

/** Where each of these messages is: its conversation (for a link to it) and its text. */
export async function messagePlaces(userId: string, messageIds: string[]): Promise<Map<string, MessagePlace>> {
  if (messageIds.length === 0) return new Map();
  const rows = await getDb()
    .select({
      messageId: messages.id,
      conversationId: messages.conversationId,
      conversationTitle: conversations.title,
      role: messages.role,
      content: messages.content,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .innerJoin(conversations, and(eq(conversations.id, messages.conversationId), eq(conversations.userId, userId)))
    .where(and(eq(messages.userId, userId), inArray(messages.id, [...new Set(messageIds)])));
  return new Map(rows.map((r) => [r.messageId, r]));
}

type CitingReply = { messageId: string; conversationId: string; conversationTitle: string; createdAt: string };
/** `sent`: replies whose context held the item; `count`: those that cited it, listed in `replies`. */
export type MemoryUsage = { count: number; sent: number; replies: CitingReply[] };
export type FactUsage = MemoryUsage;

/**
 * For each memory item key (`fact:<id>`, `episode:<id>`), the replies whose context held it and the
 * replies that cited it (among the items and the cited keys of the reply's citations): only replies
 * that still exist, each counted once, by its latest attempt (a retried reply that no longer cites
 * the item does not count). Citing replies newest first; at most `limit` listed.
 */
export async function memoryUsage(userId: string, keys: string[], limit = 20): Promise<Map<string, MemoryUsage>> {
  return usageOfGroups(
    userId,
    keys.map((key) => [key]),
    limit,
  );
}

/**
 * `memoryUsage` of groups of keys, by each group's first key: a reply that held or cited several
 * keys of a group counts once for it.
 */
async function usageOfGroups(userId: string, groups: string[][], limit: number): Promise<Map<string, MemoryUsage>> {
  groups = groups.filter((group) => group.length > 0);
  const groupOf = new Map(groups.flatMap((group) => group.map((key) => [key, group[0]] as const)));
  const keys = [...groupOf.keys()];
  // Per group, per reply (newest first): whether any of its keys was cited there.
  const replies = new Map(groups.map((group) => [group[0], new Map<string, { cited: boolean; reply: CitingReply }>()]));
  if (keys.length > 0) {
    const rows = await getDb().execute<{
      key: string;
      cited: boolean;
      message_id: string;
      conversation_id: string;
      title: string;
      created_at: string;
    }>(sql`
      with latest as (
        select distinct on (c.assistant_message_id) c.assistant_message_id, c.cited_keys, c.items
        from citations c
        where c.user_id = ${userId}
        order by c.assistant_message_id, c.created_at desc
      ), given as (
        select l.assistant_message_id, i.item->>'key' as key, (i.item->>'key') = any(l.cited_keys) as cited
        from latest l cross join lateral jsonb_array_elements(l.items) as i(item)
        where i.item->>'key' = any(${sql.param(keys)}::text[])
        union
        select l.assistant_message_id, k.key, true
        from latest l cross join lateral unnest(l.cited_keys) as k(key)
        where k.key = any(${sql.param(keys)}::text[])
      )
      select g.key, bool_or(g.cited) as cited, m.id as message_id, m.conversation_id, v.title, m.created_at::text as created_at
      from given g
      join messages m on m.id = g.assistant_message_id and m.user_id = ${userId}
      join conversations v on v.id = m.conversation_id and v.user_id = ${userId}
      group by g.key, m.id, m.conversation_id, v.title, m.created_at
      order by m.created_at desc, m.id desc`);
    for (const row of rows) {
      const group = groupOf.get(row.key);
      const seen = group === undefined ? undefined : replies.get(group);
      if (!seen) continue;
      const known = seen.get(row.message_id);
      if (known) known.cited ||= row.cited;
      else
        seen.set(row.message_id, {
          cited: row.cited,
          reply: {
            messageId: row.message_id,
            conversationId: row.conversation_id,
            conversationTitle: row.title,
            createdAt: new Date(row.created_at).toISOString(),
          },
        });
    }
  }
  return new Map(
    [...replies].map(([group, seen]) => {
      const cited = [...seen.values()].filter((r) => r.cited).map((r) => r.reply);
      return [group, { count: cited.length, sent: seen.size, replies: cited.slice(0, limit) }];
    }),
  );
}

/** `memoryUsage` of groups of facts (the facts of one listed item), by each group's first fact id. */
export async function factUsage(userId: string, groups: string[][], limit = 20): Promise<Map<string, FactUsage>> {
  const usage = await usageOfGroups(
    userId,
    groups.map((ids) => ids.map((id) => `fact:${id}`)),
    limit,
  );
  return new Map(groups.map((ids) => [ids[0], usage.get(`fact:${ids[0]}`) ?? { count: 0, sent: 0, replies: [] }]));
}

// ── Episodes (remembered exchanges) ───────────────────────────────────────────────────────────

export type EpisodeListing = {
  id: string;
  conversationId: string;
  conversationTitle: string;
  userMessageId: string;
  assistantMessageId: string;
  content: string;
  createdAt: Date;
};

const episodeColumns = {
  id: episodes.id,
  conversationId: episodes.conversationId,
  conversationTitle: conversations.title,
  userMessageId: episodes.userMessageId,
  assistantMessageId: episodes.assistantMessageId,
  content: episodes.content,
  createdAt: episodes.createdAt,
};

/** The user's remembered exchanges, newest first, optionally containing `q`, one page after `cursor`. */
export async function listEpisodesPage(
  userId: string,
  options: { q?: string; cursor?: PageCursor; limit: number },
): Promise<{ episodes: EpisodeListing[]; next: PageCursor | null; total: number }> {
  const matches = and(eq(episodes.userId, userId), options.q ? contains(episodes.content, options.q) : undefined);
  const after = options.cursor
    ? sql`(${episodes.createdAt}, ${episodes.id}) < (${options.cursor.at}::timestamptz, ${options.cursor.id}::uuid)`
    : undefined;
  const rows = await getDb()
    .select({ ...episodeColumns, at: sql<string>`${episodes.createdAt}::text` })
    .from(episodes)
    .innerJoin(conversations, and(eq(conversations.id, episodes.conversationId), eq(conversations.userId, userId)))
    .where(and(matches, after))
    .orderBy(desc(episodes.createdAt), desc(episodes.id))
    .limit(options.limit + 1);
  const [{ total }] = await getDb().select({ total: sql<number>`count(*)::int` }).from(episodes).where(matches);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    episodes: page.map(({ at: _at, ...row }) => row),
    next: rows.length > options.limit && last ? { at: last.at, id: last.id } : null,
    total,
  };
}

/** One remembered exchange of the user, with its conversation's title. */
export async function getEpisodeListing(userId: string, id: string): Promise<EpisodeListing | undefined> {
  const [row] = await getDb()
    .select(episodeColumns)
    .from(episodes)
    .innerJoin(conversations, and(eq(conversations.id, episodes.conversationId), eq(conversations.userId, userId)))
    .where(and(eq(episodes.userId, userId), eq(episodes.id, id)));
  return row;
}
