import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from './client';

export type NeighbourEpisode = {
  anchorId: string;
  /** -1: the exchange just before the anchor in its conversation; +1: just after. */
  side: -1 | 1;
  id: string;
  content: string;
  conversationId: string;
  userMessageId: string;
  assistantMessageId: string;
  createdAt: Date;
};

/**
 * The exchanges right before and after each anchor episode in its own conversation (by time), up to
 * `span` each side, skipping episodes that wait for their re-index (no text). One statement.
 */
export async function neighbourEpisodes(userId: string, anchorIds: string[], span: number): Promise<NeighbourEpisode[]> {
  if (anchorIds.length === 0 || span < 1) return [];
  const side = (direction: -1 | 1) => {
    const before = direction < 0;
    return sql`
      select ${direction}::int as side, e.id, e.content, e.conversation_id, e.user_message_id, e.assistant_message_id, e.created_at
      from episodes e
      where e.user_id = ${userId} and e.conversation_id = a.conversation_id and e.content <> ''
        and ${before ? sql`(e.created_at, e.id) < (a.created_at, a.id)` : sql`(e.created_at, e.id) > (a.created_at, a.id)`}
      order by ${before ? sql`e.created_at desc, e.id desc` : sql`e.created_at, e.id`}
      limit ${span}`;
  };
  const rows = (await getDb().execute(sql`
    select a.id as anchor_id, n.*
    from episodes a
    cross join lateral ((${side(-1)}) union all (${side(1)})) n
    where a.user_id = ${userId} and a.id = any(${sql.param(anchorIds)}::uuid[])`)) as unknown as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    anchorId: r.anchor_id as string,
    side: Number(r.side) < 0 ? -1 : 1,
    id: r.id as string,
    content: r.content as string,
    conversationId: r.conversation_id as string,
    userMessageId: r.user_message_id as string,
    assistantMessageId: r.assistant_message_id as string,
    createdAt: new Date(r.created_at as string),
  }));
}
