import { getDb } from '@/db/client';
import { maxSeq, type Scope } from '@/db/history';
import { addRedactions, type Executor, type NewRedaction } from '@/db/provenance';
import { coveredUntil, getSummary, listSummaryVersions, summarySources, writeSummary } from '@/db/summaries';
import { factRowsOf, floorsOf } from '@/db/undo';
import { deleteAllMemory } from '@/db/users';
import { type Actor, asActor, audit } from '@/lib/audit';
import { memoryItemsOf, redactAuditTrail, redactionNote } from '../edits/audit-redaction';
import { quotesOfSummary } from '../edits/quotes';
import { queueRederivation } from '../edits/rederive';
import { captureUndoable, type UndoRef } from '../edits/undo-capture';
import { scheduleRederivation } from '../jobs/queue';

/**
 * A person edits the summary: the text becomes the base of the next refresh. A stale `version` is
 * refused; without one the edit applies to whatever is current, so a rebuild written meanwhile (by a
 * job another correction queued) is read again, a few times at most.
 */
export async function editSummary(scope: Scope, content: string, version: number | undefined, by: string | Actor) {
  const actor = asActor(by);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const current = await getSummary(scope);
    if (version !== undefined && current?.version !== version) return { status: 'stale' as const, current: current?.version ?? null };
    const copies = current ? await quotesOfSummary(scope, [current], content, actor.label) : [];
    const written = await writeSummary(
      scope,
      {
        content,
        coveredMessageCount: current?.coveredMessageCount ?? 0,
        coveredUntil: coveredUntil(current),
        sourceMessageIds: current ? await summarySources(scope, current.version) : [],
        actor: actor.label,
        action: 'edit',
      },
      current?.version ?? null,
      {
        also: async (tx) => {
          await forgetCopies(tx, scope, copies);
        },
      },
    );
    if (!written) {
      if (version !== undefined) return { status: 'stale' as const, current: current?.version ?? null };
      continue;
    }
    if (copies.length > 0) scheduleRederivation(scope.userId);
    await audit(actor, scope.userId, [
      {
        objectType: 'summary',
        objectId: scope.conversationId,
        action: 'edit',
        before: { version: current?.version ?? null, content: current?.content ?? null },
        after: { version: written.version, content },
      },
    ]);
    return { status: 'edited' as const, summary: written };
  }
  return { status: 'stale' as const, current: (await getSummary(scope))?.version ?? null };
}

/**
 * Clears a summary for good: it becomes empty and later refreshes start after the clear point. A
 * clear does not depend on what the summary says, so a version written meanwhile (a rebuild job
 * queued by another correction) is cleared too: it is read again, a few times at most.
 */
export async function clearSummary(scope: Scope, by: string | Actor) {
  const actor = asActor(by);
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const current = await getSummary(scope);
    if (!current) return { status: 'missing' as const };
    const floorSeq = await maxSeq(getDb(), scope);
    const versions = (await listSummaryVersions(scope)).map((v) => ({ version: v.version, content: v.after ?? '' }));
    const copies = await quotesOfSummary(scope, versions, '', actor.label);
    let undo: UndoRef | undefined;
    const written = await writeSummary(
      scope,
      { content: '', coveredMessageCount: 0, coveredUntil: null, floorSeq, sourceMessageIds: [], actor: actor.label, action: 'clear' },
      current.version,
      {
        also: async (tx, replaced) => {
          const { added, replies } = await forgetCopies(tx, scope, copies);
          undo = await captureUndoable(tx, {
            userId: scope.userId,
            kind: 'summary_clear',
            actor: actor.label,
            touches: [`conversation:${scope.conversationId}`, ...replies.map((id) => `message:${id}`)],
            snapshot: {
              summaryFloors: [{ conversationId: scope.conversationId, floorSeq: replaced?.floorSeq ?? 0 }],
              addedRedactions: added,
              rederive: { messages: replies },
            },
          });
        },
      },
    );
    if (!written || !undo) continue;
    if (copies.length > 0) scheduleRederivation(scope.userId);
    await audit(actor, scope.userId, [
      {
        objectType: 'summary',
        objectId: scope.conversationId,
        action: 'clear',
        before: { version: current.version },
        after: { version: written.version },
      },
    ]);
    return { status: 'cleared' as const, summary: written, undo };
  }
  return { status: 'stale' as const };
}

/** In the summary change's transaction: replies' copies of the withdrawn text are forgotten, and their exchanges made again. */
async function forgetCopies(tx: Executor, scope: Scope, copies: NewRedaction[]): Promise<{ added: string[]; replies: string[] }> {
  const added = await addRedactions(tx, copies);
  const replies = [...new Set(copies.map((r) => r.messageId))];
  if (replies.length > 0) await queueRederivation(tx, scope.userId, { reindex: replies, rebuild: [] });
  return { added, replies };
}

/** How often an edit or clear without a version re-reads a summary that a job rewrote meanwhile. */
const WRITE_ATTEMPTS = 3;

/**
 * Forget everything: no fact, episode or summary of the user remains, nothing said before now is
 * indexed, summarised or mined again, and every turn record has its recalled memory redacted.
 * Conversations, messages and the records themselves stay.
 */
export async function forgetEverything(userId: string, by: string | Actor) {
  const actor = asActor(by);
  let undo: UndoRef | undefined;
  const deleted = await deleteAllMemory(userId, async (tx) => {
    const { summaryFloors, memoryFloorSeq } = await floorsOf(tx, userId);
    undo = await captureUndoable(tx, {
      userId,
      kind: 'forget_everything',
      actor: actor.label,
      touches: ['all'],
      snapshot: { rows: await factRowsOf(tx, userId), summaryFloors, memoryFloorSeq },
    });
  });
  const recordsRedacted = await redactAuditTrail(
    userId,
    { needles: [], keys: [], all: true },
    memoryItemsOf,
    redactionNote(actor, 'forget everything'),
  );
  await audit(actor, userId, [
    { objectType: 'memory', objectId: userId, action: 'forget', before: null, after: { deleted, recordsRedacted } },
  ]);
  return { deleted, recordsRedacted, undo: undo ?? null };
}
