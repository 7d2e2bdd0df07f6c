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
 * The exchanges right before and after each anchor episode in its own conversation, up to `span`
 * each side, skipping episodes that wait for their re-index (no text). One statement. The order is
 * that of the replies the episodes are keyed by, walked through the messages' (conversation,
 * created_at, seq) index from the anchor's reply, so a neighbour costs a few index steps however
 * long the conversation is.
 */
export async function neighbourEpisodes(userId: string, anchorIds: string[], span: number): Promise<NeighbourEpisode[]> {
  if (anchorIds.length === 0 || span < 1) return [];
  const side = (direction: -1 | 1) => {
    const before = direction < 0;
    return sql`
      select ${direction}::int as side, e.id, e.content, e.conversation_id, e.user_message_id, e.assistant_message_id, e.created_at
      from messages m
      join episodes e on e.assistant_message_id = m.id
      where m.conversation_id = reply.conversation_id and e.user_id = ${userId} and e.content <> ''
        and ${before ? sql`(m.created_at, m.seq) < (reply.created_at, reply.seq)` : sql`(m.created_at, m.seq) > (reply.created_at, reply.seq)`}
      order by ${before ? sql`m.created_at desc, m.seq desc` : sql`m.created_at, m.seq`}
      limit ${span}`;
  };
  const rows = (await getDb().execute(sql`
    select a.id as anchor_id, n.*
    from episodes a
    join messages reply on reply.id = a.assistant_message_id
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
