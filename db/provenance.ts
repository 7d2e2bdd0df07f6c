import 'server-only';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { type Db, getDb } from './client';
import { type MessageRedaction, memorySources, messageRedactions, messages } from './schema';

// Provenance (which messages each memory came from) and redactions (parts of messages that memory
// must no longer carry). Every function is scoped by the user's id.

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export type SourceLink = {
  userId: string;
  messageId: string;
  factId?: string;
  episodeId?: string;
  summaryVersionId?: string;
  spanStart?: number | null;
  spanEnd?: number | null;
};

export type Span = { messageId: string; spanStart: number | null; spanEnd: number | null };

export async function linkSources(executor: Executor, links: SourceLink[]): Promise<void> {
  if (links.length === 0) return;
  await executor.insert(memorySources).values(links);
}

/** The messages each fact came from, with the span that stated it, oldest link first. */
export async function factSources(userId: string, factIds: string[]): Promise<Map<string, Span[]>> {
  const bySource = new Map<string, Span[]>(factIds.map((id) => [id, []]));
  if (factIds.length === 0) return bySource;
  const rows = await getDb()
    .select({
      factId: memorySources.factId,
      messageId: memorySources.messageId,
      spanStart: memorySources.spanStart,
      spanEnd: memorySources.spanEnd,
    })
    .from(memorySources)
    .where(and(eq(memorySources.userId, userId), inArray(memorySources.factId, factIds)))
    .orderBy(memorySources.createdAt);
  for (const { factId, ...span } of rows) bySource.get(factId!)?.push(span);
  return bySource;
}

/** Everything derived from these messages: the reverse of provenance. */
export async function derivedFrom(executor: Executor, userId: string, messageIds: string[]) {
  if (messageIds.length === 0) return { factIds: [], episodeIds: [], summaryVersionIds: [] };
  const rows = await executor
    .select({ factId: memorySources.factId, episodeId: memorySources.episodeId, summaryVersionId: memorySources.summaryVersionId })
    .from(memorySources)
    .where(and(eq(memorySources.userId, userId), inArray(memorySources.messageId, messageIds)));
  const unique = (values: Array<string | null>) => [...new Set(values.filter((v): v is string => v !== null))];
  return {
    factIds: unique(rows.map((r) => r.factId)),
    episodeIds: unique(rows.map((r) => r.episodeId)),
    summaryVersionIds: unique(rows.map((r) => r.summaryVersionId)),
  };
}

/** Facts all of whose sources are among these messages: nothing else the user said supports them. */
export async function factsOnlyFrom(executor: Executor, userId: string, messageIds: string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows = await executor.execute<{ fact_id: string }>(sql`
    select fact_id from memory_sources
    where user_id = ${userId} and fact_id is not null
    group by fact_id
    having bool_or(message_id = any(${sql.param(messageIds)}::uuid[]))
       and bool_and(message_id = any(${sql.param(messageIds)}::uuid[]))`);
  return rows.map((r) => r.fact_id);
}

/** Drops the links of facts to these messages (their text changed, so they no longer state the fact). */
export async function unlinkFacts(executor: Executor, userId: string, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await executor
    .delete(memorySources)
    .where(and(eq(memorySources.userId, userId), inArray(memorySources.messageId, messageIds), isNotNull(memorySources.factId)));
}

export type NewRedaction = Pick<
  MessageRedaction,
  'messageId' | 'userId' | 'kind' | 'spanStart' | 'spanEnd' | 'factId' | 'replacement' | 'actor'
>;

/**
 * How replies are searched for a withdrawn text, as `occurrences` in lib/memory/redaction.ts
 * searches: trimmed, lower-cased by JavaScript; '' (never searched for) when under 2 characters.
 */
function redactionNeedle(original: string): string {
  const trimmed = original.trim();
  return trimmed.length < 2 ? '' : trimmed.toLowerCase();
}

/** Stores redactions, each with its needle: the text its span cuts from the message as it is now. Returns their ids. */
export async function addRedactions(executor: Executor, rows: NewRedaction[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((r) => r.messageId))];
  const owners = [...new Set(rows.map((r) => r.userId))];
  const stored = await executor
    .select({ id: messages.id, content: messages.content })
    .from(messages)
    .where(and(inArray(messages.userId, owners), inArray(messages.id, ids)));
  const contents = new Map(stored.map((m) => [m.id, m.content]));
  const added = await executor
    .insert(messageRedactions)
    .values(
      rows.map((r) => {
        const content = contents.get(r.messageId);
        return { ...r, needle: content === undefined ? null : redactionNeedle(content.slice(r.spanStart, r.spanEnd)) };
      }),
    )
    .returning({ id: messageRedactions.id });
  return added.map((r) => r.id);
}

export async function redactionsOf(userId: string, messageIds: string[]): Promise<MessageRedaction[]> {
  if (messageIds.length === 0) return [];
  return getDb()
    .select()
    .from(messageRedactions)
    .where(and(eq(messageRedactions.userId, userId), inArray(messageRedactions.messageId, messageIds)))
    .orderBy(messageRedactions.spanStart);
}

/** A fact edited again: its corrections in memory carry the newest text, and who wrote it. */
export async function updateCorrections(
  executor: Executor,
  userId: string,
  factId: string,
  replacement: string,
  actor: string,
): Promise<string[]> {
  const rows = await executor
    .update(messageRedactions)
    .set({ replacement, actor })
    .where(and(eq(messageRedactions.userId, userId), eq(messageRedactions.factId, factId), eq(messageRedactions.kind, 'corrected')))
    .returning({ messageId: messageRedactions.messageId });
  return [...new Set(rows.map((r) => r.messageId))];
}

/** A corrected fact that is then deleted: its corrections become forgotten parts too. Returns the messages touched. */
export async function forgetCorrections(executor: Executor, userId: string, factIds: string[], actor: string): Promise<string[]> {
  if (factIds.length === 0) return [];
  const rows = await executor
    .update(messageRedactions)
    .set({ kind: 'forgotten', replacement: null, actor })
    .where(and(eq(messageRedactions.userId, userId), inArray(messageRedactions.factId, factIds), eq(messageRedactions.kind, 'corrected')))
    .returning({ messageId: messageRedactions.messageId });
  return [...new Set(rows.map((r) => r.messageId))];
}

/** A message whose text was replaced starts clean: its old redactions described the old text. */
export async function dropRedactions(executor: Executor, userId: string, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await executor
    .delete(messageRedactions)
    .where(and(eq(messageRedactions.userId, userId), inArray(messageRedactions.messageId, messageIds)));
}

export type WithdrawnText = { original: string; kind: MessageRedaction['kind']; replacement: string | null };

/**
 * The texts the user withdrew (a forgotten or corrected part, as the message held it), with how
 * memory reads them, so a reply that quoted one is read the same way. Only those that occur in one
 * of these texts (the replies being read) are read, matched in SQL on the stored needle: what is
 * read grows with what the replies quote, not with everything the user ever withdrew. Rows from
 * before the needle column are read whatever the replies hold, and cut here as they always were.
 */
export async function withdrawnTexts(userId: string, replies: string[]): Promise<WithdrawnText[]> {
  const haystacks = [...new Set(replies.map((r) => r.toLowerCase()).filter((r) => r.length >= 2))];
  if (haystacks.length === 0) return [];
  const rows = await getDb()
    .select({
      needle: messageRedactions.needle,
      content: sql<string | null>`case when ${messageRedactions.needle} is null then ${messages.content} end`,
      start: messageRedactions.spanStart,
      end: messageRedactions.spanEnd,
      kind: messageRedactions.kind,
      replacement: messageRedactions.replacement,
    })
    .from(messageRedactions)
    .innerJoin(messages, eq(messages.id, messageRedactions.messageId))
    .where(
      and(
        eq(messageRedactions.userId, userId),
        sql`(${messageRedactions.needle} is null or (${messageRedactions.needle} <> '' and exists (select 1 from unnest(${sql.param(haystacks)}::text[]) as h(t) where strpos(h.t, ${messageRedactions.needle}) > 0)))`,
      ),
    )
    .orderBy(messageRedactions.createdAt, messageRedactions.id);
  // Offsets are JavaScript string offsets (UTF-16), so a text is cut here, not in SQL.
  const unique = new Map<string, WithdrawnText>();
  for (const r of rows) {
    const original = r.needle ?? r.content!.slice(r.start, r.end);
    if (original.trim().length >= 2)
      unique.set(`${r.kind}\u0000${redactionNeedle(original)}\u0000${r.replacement}`, {
        original,
        kind: r.kind,
        replacement: r.replacement,
      });
  }
  return [...unique.values()];
}
