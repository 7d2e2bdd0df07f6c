import { getFact } from '@/db/facts';
import type { UndoKind } from '@/db/schema';
import { type ListedChange, listChanges } from '@/db/undo';
import { getConfig } from '../config';
import { labelForOwner, staffReasonsByFact } from '../memory/actors';
import { undoableBy } from '../memory/corrections/undo';

/**
 * One change in the user's list of recent changes, in words a member reads: what it was (`what`),
 * the fact's text as it stands now where the change left one (never what was deleted or forgotten),
 * who made it (an actor label as the owner reads it, see components/describe-actor.ts), and how to
 * undo it while the user can.
 */
type RecentChange = {
  id: string;
  kind: UndoKind;
  what: string;
  /** The fact as it reads now, after an edit, a fact learned or the replacement; absent once it is deleted. */
  text?: string;
  /** The fact a replacement replaced, as it reads now; absent once it is deleted. */
  previousText?: string;
  at: string;
  by: string;
  /** The reason staff gave, for a change of a fact staff made. */
  reason: string | null;
  undone: boolean;
  undo: { id: string; expiresAt: string } | null;
  /** With `undo`: a later change that still stands touched the same memory, so that one must be undone first. */
  blocked: boolean;
};

/** How long a change can be undone after it is made, in minutes (the dialogs that make one say so). */
export const undoWindowMinutes = () => getConfig().UNDO_WINDOW_MINUTES;

const MESSAGE_TOUCH = /^message:/u;

/** The change in a member's words; a forgotten thing is never named, only what kind of thing it was. */
function describeChange(change: ListedChange): string {
  const facts = change.touches.filter((t) => t.startsWith('fact:')).length;
  switch (change.kind) {
    case 'fact_edit':
      return 'Fact edited';
    case 'fact_delete':
      if (change.sourceMessageId) return 'Forgotten as you asked in the chat';
      return facts > 1 ? `${facts} facts deleted` : 'Fact deleted';
    case 'episode_forget':
      return 'Remembered exchange forgotten';
    case 'summary_clear':
      return 'Conversation summary cleared';
    case 'message_remove': {
      // Counted from the snapshot while it is kept; after, from what it touched (the message itself,
      // and replies that quoted it, which are rare), so a cleared conversation still reads as several.
      const removed = change.messagesRemoved ?? change.touches.filter((t) => MESSAGE_TOUCH.test(t)).length;
      return removed > 1 ? `Conversation cleared (${removed} messages deleted)` : 'Message deleted';
    }
    case 'forget_everything':
      return 'Everything forgotten';
    case 'fact_learned':
      return 'Fact learned from your message';
    case 'fact_replaced':
      return 'Fact updated from your message';
  }
}

/** The fact ids a change of facts is about: the one it learned, edited or replaced with, or those it deleted. */
const factsOf = (change: ListedChange) =>
  change.factId ? [change.factId] : change.touches.filter((t) => t.startsWith('fact:')).map((t) => t.slice('fact:'.length));

const SHOWS_TEXT: ReadonlySet<UndoKind> = new Set(['fact_edit', 'fact_learned', 'fact_replaced']);
const ABOUT_FACTS: ReadonlySet<UndoKind> = new Set(['fact_edit', 'fact_delete']);

const PAGE_MAX = 50;

/**
 * A page of the user's recent changes to memory, newest first: each correction (a fact edited or
 * deleted, an exchange forgotten, a summary cleared, a message deleted, everything forgotten) and
 * each fact a reply learned or replaced, with Undo while it can be undone by this user (staff's
 * changes are listed, theirs to undo). `nextCursor` asks for the next page (null on the last).
 */
export async function recentChangesOf(userId: string, { cursor, limit }: { cursor?: string; limit: number }) {
  const size = Math.min(Math.max(limit, 1), PAGE_MAX);
  const rows = await listChanges(userId, { limit: size + 1, after: cursor });
  const page = rows.slice(0, size);
  const textIds = [
    ...new Set(page.filter((c) => SHOWS_TEXT.has(c.kind)).flatMap((c) => [c.factId, c.previousFactId].filter((id) => id !== null))),
  ];
  const texts = new Map(
    await Promise.all(
      textIds.map(async (id) => {
        const fact = await getFact(userId, id);
        // A fact deleted since is never repeated: its text is what was taken away.
        return [id, fact && fact.status !== 'deleted' ? fact.content : undefined] as const;
      }),
    ),
  );
  const byStaff = (c: ListedChange) => labelForOwner(c.actor, userId).startsWith('staff:');
  const reasons = page.some((c) => byStaff(c) && ABOUT_FACTS.has(c.kind)) ? await staffReasonsByFact(userId) : new Map<string, string>();
  const now = Date.now();
  const changes: RecentChange[] = page.map((change) => {
    const text = change.factId ? texts.get(change.factId) : undefined;
    const previousText = change.kind === 'fact_replaced' && change.previousFactId ? texts.get(change.previousFactId) : undefined;
    const open = change.undoneAt === null && change.kept && change.expiresAt.getTime() > now && undoableBy(change, userId);
    const staffReason =
      byStaff(change) && ABOUT_FACTS.has(change.kind)
        ? factsOf(change)
            .map((id) => reasons.get(id))
            .find(Boolean)
        : undefined;
    // The fact it left is gone since (deleted, or ended with its message): said, never named.
    const gone = SHOWS_TEXT.has(change.kind) && text === undefined;
    return {
      id: change.id,
      kind: change.kind,
      what: gone ? `${describeChange(change)} (deleted since)` : describeChange(change),
      ...(text === undefined ? {} : { text }),
      ...(previousText === undefined ? {} : { previousText }),
      at: change.createdAt.toISOString(),
      by: labelForOwner(change.actor, userId),
      reason: staffReason ?? null,
      undone: change.undoneAt !== null,
      undo: open ? { id: change.id, expiresAt: change.expiresAt.toISOString() } : null,
      blocked: open && change.blocked,
    };
  });
  return { changes, nextCursor: rows.length > size ? page[page.length - 1].id : null, undoMinutes: undoWindowMinutes() };
}
