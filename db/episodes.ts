import { sql } from 'drizzle-orm';
import { getDb } from './client';
import { hybridSearch } from './hybrid-search';
import { episodes } from './schema';
import type { RankedCandidate } from './vector';

export type NewEpisode = {
  userId: string;
  conversationId: string;
  userMessageId: string;
  assistantMessageId: string;
  content: string;
  embedding: number[];
  createdAt: Date;
};

/** Idempotent per assistant message: indexing a turn twice is a no-op. */
export async function insertEpisode(episode: NewEpisode): Promise<boolean> {
  const rows = await getDb()
    .insert(episodes)
    .values(episode)
    .onConflictDoNothing({ target: episodes.assistantMessageId })
    .returning({ id: episodes.id });
  return rows.length > 0;
}

export type EpisodeHit = RankedCandidate & {
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
  keywords: string[];
  k: number;
  minSimilarity?: number;
  /** Turns already in the recent window, by message id (never by text). */
  excludeMessageIds: string[];
};

export async function searchEpisodes(query: EpisodeQuery): Promise<EpisodeHit[]> {
  const exclude = query.excludeMessageIds;
  const hits = await hybridSearch({
    table: 'episodes',
    scope: sql`e.user_id = ${query.userId}
      ${query.conversationId ? sql`and e.conversation_id = ${query.conversationId}` : sql``}
      ${exclude.length ? sql`and e.user_message_id <> all(${sql.param(exclude)}::uuid[]) and e.assistant_message_id <> all(${sql.param(exclude)}::uuid[])` : sql``}`,
    embedding: query.embedding,
    keywords: query.keywords,
    k: query.k,
    minSimilarity: query.minSimilarity ?? -1,
  });
  return hits.map(({ row, ...ranks }) => ({
    ...ranks,
    content: row.content as string,
    conversationId: row.conversation_id as string,
    userMessageId: row.user_message_id as string,
    assistantMessageId: row.assistant_message_id as string,
    createdAt: new Date(row.created_at as string),
  }));
}
