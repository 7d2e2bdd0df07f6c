import { listMessages, type Scope } from '@/db/history';
import { redactionsOf } from '@/db/provenance';
import type { Message } from '@/db/schema';

/** A part of a message memory no longer carries, as the chat marks it. */
export type MessageMark = { start: number; end: number; kind: 'forgotten' | 'corrected'; replacement: string | null; at: string };

/** The conversation's messages as the chat shows them: as written, with the parts memlens forgot or the user corrected marked. */
export async function conversationMessages(scope: Scope): Promise<Array<Message & { marks: MessageMark[] }>> {
  const rows = await listMessages(scope);
  const spans = await redactionsOf(
    scope.userId,
    rows.map((m) => m.id),
  );
  return rows.map((m) => ({
    ...m,
    marks: spans
      .filter((s) => s.messageId === m.id)
      .map((s) => ({ start: s.spanStart, end: s.spanEnd, kind: s.kind, replacement: s.replacement, at: s.createdAt.toISOString() })),
  }));
}
