import { getDb } from '@/db/client';
import { getConversation } from '@/db/conversations';
import { deleteFacts } from '@/db/facts';
import { getMessages, type Scope } from '@/db/history';
import type { Executor } from '@/db/provenance';
import type { UndoableChange } from '@/db/schema';
import { getSummary, writeSummary } from '@/db/summaries';
import {
  deleteRedactionsById,
  laterChangeOverlaps,
  lockUndoable,
  markUndone,
  putRowsBack,
  repliesWithoutEpisode,
  setMemoryFloor,
  type UndoSnapshot,
} from '@/db/undo';
import { type Actor, asActor, audit } from '@/lib/audit';
import { DomainError, notFound } from '@/lib/errors';
import { queueRederivation, summariesCovering } from '../edits/rederive';
import { scheduleRederivation } from '../jobs/queue';

/** A user undoes what they did themselves or what memlens did in their chat; a change staff made is staff's to undo. */
export const undoableBy = (change: Pick<UndoableChange, 'actor'>, userId: string) =>
  change.actor === `user:${userId}` || !(change.actor.startsWith('user:') || change.actor.startsWith('staff:'));

/**
 * Undoes one change, once, within its time: what it removed goes back, what it added goes, clear
 * points and the memory floor move back, and episodes and summaries are derived again from the
 * messages as memory reads them now, so another correction made since still holds. A later change
 * that still stands and touched the same memory must be undone first. Turn records redacted by the
 * change stay redacted: they are snapshots of what was sent.
 */
export async function undoChange(userId: string, id: string, by: Actor | string) {
  const actor = asActor(by);
  const { change, restored } = await getDb().transaction(async (tx) => {
    const change = await lockUndoable(tx, userId, id);
    if (!change || !undoableBy(change, userId)) throw notFound('Change', id);
    if (change.undoneAt) throw new DomainError('already_undone', 'This change was already undone.', { undoneAt: change.undoneAt });
    if (!change.snapshot || change.expiresAt.getTime() <= Date.now())
      throw new DomainError('undo_expired', 'This change can no longer be undone: its time ran out.', { expiredAt: change.expiresAt });
    if (await laterChangeOverlaps(tx, change))
      throw new DomainError('undo_blocked', 'A later change touched the same memory: undo that one first.');
    const snapshot = change.snapshot as UndoSnapshot;
    await markUndone(tx, id);
    // What the change added goes first: a replaced fact comes back in its replacement's place.
    await deleteFacts(tx, userId, snapshot.addedFacts ?? []);
    await deleteRedactionsById(tx, userId, snapshot.addedRedactions ?? []);
    const restored = await putRowsBack(tx, userId, snapshot.rows ?? {});
    if (snapshot.memoryFloorSeq !== undefined) await setMemoryFloor(tx, userId, snapshot.memoryFloorSeq);
    for (const { conversationId, floorSeq } of snapshot.summaryFloors ?? [])
      await restoreClearPoint(tx, { userId, conversationId }, floorSeq, actor);
    await deriveAgain(tx, userId, snapshot);
    return { change, restored };
  });
  scheduleRederivation(userId);
  await audit(actor, userId, [
    { objectType: 'change', objectId: id, action: 'undo', before: { kind: change.kind, at: change.createdAt }, after: { restored } },
  ]);
  return { undone: id, kind: change.kind };
}

/** The summary's clear point as it was before: an empty summary there, rebuilt from the messages after it. */
async function restoreClearPoint(tx: Executor, scope: Scope, floorSeq: number, actor: Actor): Promise<void> {
  if (!(await getConversation(scope.userId, scope.conversationId, tx))) return;
  for (;;) {
    const current = await getSummary(scope, tx);
    const write = { content: '', coveredMessageCount: 0, coveredUntil: null, floorSeq, sourceMessageIds: [], actor: actor.label };
    if (await writeSummary(scope, { ...write, action: 'rebuild' }, current?.version ?? null, { executor: tx })) return;
  }
}

/** Queues deriving again what the change had taken away; with forget everything undone, every turn of the user. */
async function deriveAgain(tx: Executor, userId: string, snapshot: UndoSnapshot): Promise<void> {
  const work = snapshot.rederive;
  const everything = snapshot.memoryFloorSeq !== undefined;
  if (!work && !everything && !snapshot.summaryFloors) return;
  const messageIds = work?.messages ?? [];
  const touched = await getMessages(userId, messageIds, tx);
  const replies = await repliesWithoutEpisode(tx, userId, everything ? undefined : messageIds);
  await queueRederivation(tx, userId, {
    reindex: messageIds,
    replies: replies.map((r) => r.id),
    rebuild: [
      ...(work?.conversations ?? []),
      ...(snapshot.summaryFloors ?? []).map((s) => s.conversationId),
      ...(await summariesCovering(tx, userId, touched)),
    ],
  });
}
