import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getDb } from './client';
import { type HybridSearch, hybridSearches, type SearchHit } from './hybrid-search';
import { stillRunning } from './jobs';
import { type Executor, linkSources } from './provenance';
import { episodes, memorySources } from './schema';
import type { LexicalQuery } from './search-vector';
import { searchVector } from './search-vector';
import { forgottenAmong } from './users';

export type NewEpisode = {
  userId: string;
  conversationId: string;
  userMessageId: string;
  assistantMessageId: string;
  content: string;
  /** The content's index terms (lib/text/bilingual.ts indexTerms), for the lexical index. */
  indexTerms: string[];
  embedding: number[];
  createdAt: Date;
};

/**
 * One episode per assistant message: indexing a turn again replaces its text and embedding (after
 * a correction), and its provenance links are those of the latest text. Many at once (an import's
 * turns) in one transaction of two or three statements.
 */
/**
 * Writes episodes with their sources. `jobOf`: the job that derived each (by its reply's id); once a
 * correction queued it again (its messages changed meanwhile), what it derived is stale and is not
 * written: the job runs again with the new text.
 */
export async function putEpisodes(list: Array<NewEpisode & { sourceMessageIds: string[] }>, jobOf?: Map<string, string>): Promise<void> {
  if (list.length === 0) return;
  await getDb().transaction(async (tx) => {
    const running = jobOf ? await stillRunning(tx, [...jobOf.values()]) : undefined;
    const current = running ? list.filter((e) => running.has(jobOf!.get(e.assistantMessageId) ?? '')) : list;
    // A turn "forget everything" took while it was being indexed is not indexed again (a call holds one user's turns).
    const forgotten = await forgottenAmong(
      tx,
      list[0].userId,
      list.flatMap((e) => e.sourceMessageIds),
    );
    const kept = current.filter((episode) => !episode.sourceMessageIds.some((id) => forgotten.has(id)));
    if (kept.length === 0) return;
    const rows = kept.map(({ sourceMessageIds: _, indexTerms, ...episode }) => ({
      ...episode,
      searchVector: searchVector(episode.content, indexTerms),
    }));
    const stored = await tx
      .insert(episodes)
      .values(rows)
      .onConflictDoUpdate({
        target: episodes.assistantMessageId,
        set: {
          content: sql`excluded.content`,
          embedding: sql`excluded.embedding`,
          searchVector: sql`excluded.search_vector`,
          userMessageId: sql`excluded.user_message_id`,
        },
      })
      // xmax is 0 on a row this statement inserted: only a re-indexed episode has old links to drop.
      .returning({ id: episodes.id, assistantMessageId: episodes.assistantMessageId, inserted: sql<boolean>`xmax = 0` });
    const idOf = new Map(stored.map((row) => [row.assistantMessageId, row.id]));
    const reindexed = stored.filter((row) => !row.inserted).map((row) => row.id);
    if (reindexed.length > 0) await tx.delete(memorySources).where(inArray(memorySources.episodeId, reindexed));
    await linkSources(
      tx,
      kept.flatMap((episode) =>
        episode.sourceMessageIds.map((messageId) => ({
          userId: episode.userId,
          messageId,
          episodeId: idOf.get(episode.assistantMessageId)!,
        })),
      ),
    );
  });
}

export async function getEpisode(userId: string, id: string) {
  const [row] = await getDb()
    .select({
      id: episodes.id,
      conversationId: episodes.conversationId,
      assistantMessageId: episodes.assistantMessageId,
      content: episodes.content,
      createdAt: episodes.createdAt,
    })
    .from(episodes)
    .where(and(eq(episodes.userId, userId), eq(episodes.id, id)));
  return row;
}

export async function episodeSources(userId: string, id: string): Promise<string[]> {
  const rows = await getDb()
    .select({ messageId: memorySources.messageId })
    .from(memorySources)
    .where(and(eq(memorySources.userId, userId), eq(memorySources.episodeId, id)));
  return rows.map((r) => r.messageId);
}

/** The replies whose episodes must be indexed again. */
export async function episodeReplies(userId: string, episodeIds: string[], executor: Executor = getDb()): Promise<string[]> {
  if (episodeIds.length === 0) return [];
  const rows = await executor
    .select({ id: episodes.assistantMessageId })
    .from(episodes)
    .where(and(eq(episodes.userId, userId), inArray(episodes.id, episodeIds)));
  return rows.map((r) => r.id);
}

export async function deleteEpisodes(executor: Executor, userId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await executor.delete(episodes).where(and(eq(episodes.userId, userId), inArray(episodes.id, ids)));
}

/**
 * Takes the text out of the episodes of these replies, keeping each row (its id and sources) for the
 * re-index that writes the text again: meanwhile nothing reads the old text, and recall skips them.
 */
export async function blankEpisodesOf(executor: Executor, userId: string, assistantMessageIds: string[]): Promise<void> {
  if (assistantMessageIds.length === 0) return;
  await executor
    .update(episodes)
    .set({ content: '', searchVector: sql`''::tsvector` })
    .where(and(eq(episodes.userId, userId), inArray(episodes.assistantMessageId, assistantMessageIds)));
}

export async function deleteEpisodeOf(userId: string, assistantMessageId: string): Promise<void> {
  await getDb()
    .delete(episodes)
    .where(and(eq(episodes.userId, userId), eq(episodes.assistantMessageId, assistantMessageId)));
}

export type EpisodeHit = SearchHit & {
  content: string;
  conversationId: string;
  userMessageId: string;
  assistantMessageId: string;
  createdAt: Date;
};

export type EpisodeQuery = {
  userId: string;
  /** null: every conversation of the user. */
  conversationId: string | null;
  embedding: number[];
  keywords: LexicalQuery;
  k: number;
  minSimilarity?: number;
  /** Turns already in the recent window, by message id (never by text). */
  excludeMessageIds: string[];
  /** Only episodes said in this period (from inclusive, to exclusive). */
  saidBetween?: { from: Date; to: Date };
};

/** The hybrid search recall runs over the user's episodes (also scoring one episode for it). */
export function episodeSearch(query: EpisodeQuery): HybridSearch {
  const exclude = query.excludeMessageIds;
  return {
    table: 'episodes',
    userId: query.userId,
    scope: sql`e.user_id = ${query.userId}
      ${query.conversationId ? sql`and e.conversation_id = ${query.conversationId}` : sql``}
      ${exclude.length ? sql`and e.user_message_id <> all(${sql.param(exclude)}::uuid[]) and e.assistant_message_id <> all(${sql.param(exclude)}::uuid[])` : sql``}
      ${query.saidBetween ? sql`and e.created_at >= ${query.saidBetween.from.toISOString()} and e.created_at < ${query.saidBetween.to.toISOString()}` : sql``}`,
    embedding: query.embedding,
    keywords: query.keywords,
    k: query.k,
    minSimilarity: query.minSimilarity ?? -1,
  };
}

export async function searchEpisodes(query: EpisodeQuery): Promise<EpisodeHit[]> {
  const [hits] = await searchEpisodesAtOnce([query]);
  return hits;
}

/** Several episode searches in one statement (one round trip): each one's hits, in the order given. */
export async function searchEpisodesAtOnce(queries: EpisodeQuery[]): Promise<EpisodeHit[][]> {
  const results = await hybridSearches(queries.map(episodeSearch));
  return results.map((hits) =>
    hits.map(({ row, ...ranks }) => ({
      ...ranks,
      content: row.content as string,
      conversationId: row.conversation_id as string,
      userMessageId: row.user_message_id as string,
      assistantMessageId: row.assistant_message_id as string,
      createdAt: new Date(row.created_at as string),
    })),
  );
}
