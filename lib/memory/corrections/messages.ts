import { getDb } from '@/db/client';
import { episodeReplies } from '@/db/episodes';
import { endUnsupportedFacts, factsReplacedBy, getFact, reactivateFact } from '@/db/facts';
import { deleteMessages, getMessages, type Scope } from '@/db/history';
import { addRedactions, derivedFrom, dropRedactions, type Executor, factsOnlyFrom, type NewRedaction, unlinkFacts } from '@/db/provenance';
import type { Fact, Message } from '@/db/schema';
import { messagesCoveredBySummary } from '@/db/summaries';
import { factRowsOf, linksAndRedactionsOf, type UndoSnapshot } from '@/db/undo';
import { type Actor, asActor, audit, redactedText } from '@/lib/audit';
import { getModels } from '@/lib/llm';
import { redactAuditTrail, redactionNote } from '../edits/audit-redaction';
import { dedupe, planRedactions, quotesOfMessages } from '../edits/quotes';
import { queueRederivation, summariesCovering } from '../edits/rederive';
import { captureUndoable, type UndoRef } from '../edits/undo-capture';
import { embedTexts } from '../embed';
import { scheduleRederivation } from '../jobs/queue';
import { sentencesOf } from '../redaction';

/**
 * What an edit or removal of messages does to memory, counted before anything changes (the delete
 * dialog shows it): facts learned only from them end, remembered exchanges made from them are
 * derived again (or go), summaries that covered them are rebuilt, replies elsewhere that quoted them
 * lose those sentences.
 */
type MessageCorrectionCounts = { factsEnded: number; episodesRederived: number; summariesRebuilt: number; repliesMarked: number };

/**
 * An edit or removal of messages, planned from reads before they change. Then `applyMessageCorrection`
 * makes the change in one transaction (memory's part, the messages' own change, the jobs it needs),
 * and `finishMessageCorrection`, once that has committed, does what reads the committed state.
 */
export type MessageCorrectionPlan = {
  counts: MessageCorrectionCounts;
  scope: Scope;
  messageIds: string[];
  actor: Actor;
  change: 'edit' | 'remove';
  /** The messages as they were, oldest first. */
  changing: Message[];
  /** Episodes and facts derived from them; the facts learned from them alone. */
  derived: { episodeIds: string[] };
  orphaned: string[];
  /** Of those, the current ones that end, and where replies quoted or cited them. */
  ending: Fact[];
  endingTexts: string[];
  /** Replies elsewhere that lose quoted sentences, and those sentences. */
  quotes: NewRedaction[];
  quoting: Message[];
  /** Replies whose episodes are derived again; conversations whose summaries are rebuilt. */
  replies: string[];
  rebuilt: string[];
};

/** What the transaction did that the finish reports: facts ended, facts current again, the undo. */
export type AppliedMessageCorrection = { endedCurrent: string[]; restored: Fact[]; undo: UndoRef | null };

const reasonOf = (change: 'edit' | 'remove') => (change === 'edit' ? 'its source message was edited' : 'its source message was removed');

export async function planMessageCorrection(
  scope: Scope,
  messageIds: string[],
  by: string | Actor,
  change: 'edit' | 'remove',
): Promise<MessageCorrectionPlan> {
  const actor = asActor(by);
  const changing = (await getMessages(scope.userId, messageIds)).sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.seq - b.seq,
  );
  const db = getDb();
  const derived = await derivedFrom(db, scope.userId, messageIds);
  const orphaned = await factsOnlyFrom(db, scope.userId, messageIds);
  // A summary that covers a message was built from it (coverage only moves forward).
  const rebuild = (await messagesCoveredBySummary(scope, messageIds)).length > 0;
  const replies = await episodeReplies(scope.userId, derived.episodeIds);
  // Replies elsewhere that quoted these messages, or quoted or cited a fact this takes away, lose
  // that sentence, as on a deletion.
  const ending = (await Promise.all(orphaned.map((id) => getFact(scope.userId, id)))).filter((f): f is Fact => f?.status === 'active');
  const affected = new Set(messageIds);
  const endingPlan = await planRedactions(scope.userId, ending, 'forgotten', null, actor.label);
  const quotes = dedupe([...endingPlan.rows, ...(await quotesOfMessages(scope.userId, changing, actor.label))]).filter(
    (r) => !affected.has(r.messageId),
  );
  const quoting = await getMessages(scope.userId, [...new Set(quotes.map((r) => r.messageId))]);
  const rebuilt = [...new Set([...(rebuild ? [scope.conversationId] : []), ...(await summariesCovering(db, scope.userId, quoting))])];
  return {
    counts: {
      factsEnded: ending.length,
      episodesRederived: derived.episodeIds.length,
      summariesRebuilt: rebuilt.length,
      repliesMarked: quoting.length,
    },
    ...{ scope, messageIds, actor, change, changing, derived, orphaned, ending, endingTexts: endingPlan.texts, quotes, quoting },
    replies,
    rebuilt,
  };
}

/**
 * In the caller's transaction: memory lets go of the messages, `changeMessages` changes them (an
 * edit puts the new text, a removal deletes them), and the re-derivation they need is queued, after
 * the change so that the jobs key on messages that remain.
 */
export async function applyMessageCorrection<T>(
  tx: Executor,
  plan: MessageCorrectionPlan,
  changeMessages: (tx: Executor) => Promise<T>,
): Promise<{ applied: AppliedMessageCorrection; changed: T }> {
  const { scope, messageIds, orphaned, actor } = plan;
  const before = {
    facts: (await factRowsOf(tx, scope.userId, orphaned)).facts ?? [],
    ...(await linksAndRedactionsOf(tx, scope.userId, messageIds)),
  };
  const endedCurrent = await endUnsupportedFacts(tx, scope.userId, orphaned, reasonOf(plan.change), actor.label);
  const restored = await factsCurrentAgain(tx, scope.userId, orphaned, endedCurrent);
  await unlinkFacts(tx, scope.userId, messageIds);
  await dropRedactions(tx, scope.userId, messageIds);
  const added = await addRedactions(tx, plan.quotes);
  const undo = plan.change === 'remove' ? await captureRemoval(tx, plan, { before, restored, added }) : null;
  const changed = await changeMessages(tx);
  await queueRederivation(tx, scope.userId, { reindex: plan.quoting.map((m) => m.id), replies: plan.replies, rebuild: plan.rebuilt });
  return { applied: { endedCurrent, restored, undo }, changed };
}

/**
 * A fact one of the ended facts had replaced is current again, unless the changed messages alone
 * stated it too: then the walk goes on to the one before it.
 */
async function factsCurrentAgain(tx: Executor, userId: string, orphaned: string[], endedCurrent: string[]): Promise<Fact[]> {
  const unsupported = new Set(orphaned);
  const seen = new Set<string>();
  const restore: Fact[] = [];
  for (let frontier = await factsReplacedBy(tx, userId, endedCurrent); frontier.length > 0; ) {
    const fresh = frontier.filter((f) => !seen.has(f.id));
    for (const f of fresh) seen.add(f.id);
    restore.push(...fresh.filter((f) => !unsupported.has(f.id) && f.status === 'superseded'));
    frontier = await factsReplacedBy(
      tx,
      userId,
      fresh.filter((f) => unsupported.has(f.id)).map((f) => f.id),
    );
  }
  return restore;
}

/** A removal's undo: the messages, their links and redactions, the facts it ends or brings back. */
async function captureRemoval(
  tx: Executor,
  plan: MessageCorrectionPlan,
  taken: { before: NonNullable<UndoSnapshot['rows']>; restored: Fact[]; added: string[] },
): Promise<UndoRef> {
  const { scope, messageIds } = plan;
  const replaced =
    (
      await factRowsOf(
        tx,
        scope.userId,
        taken.restored.map((f) => f.id),
      )
    ).facts ?? [];
  const rederive = [...messageIds, ...plan.quoting.map((m) => m.id)];
  return captureUndoable(tx, {
    userId: scope.userId,
    kind: 'message_remove',
    actor: plan.actor.label,
    touches: [
      `conversation:${scope.conversationId}`,
      ...rederive.map((id) => `message:${id}`),
      ...[...plan.orphaned, ...taken.restored.map((f) => f.id)].map((id) => `fact:${id}`),
    ],
    snapshot: {
      rows: { ...taken.before, messages: plan.changing, facts: [...(taken.before.facts ?? []), ...replaced] },
      addedRedactions: taken.added,
      rederive: { messages: rederive, conversations: [scope.conversationId] },
    },
  });
}

/**
 * Once the change has committed: facts current again get their embeddings back, and turn records
 * and citations that quoted the old words, or recalled what is taken away with them, are redacted as
 * on a deletion of a fact. Answers how many turn records it redacted.
 */
export async function finishMessageCorrection(
  plan: MessageCorrectionPlan,
  applied: AppliedMessageCorrection,
): Promise<{ recordsRedacted: number }> {
  const { scope, actor, change, changing } = plan;
  const models = getModels();
  for (const fact of applied.restored) {
    const [embedding] = await embedTexts(models, [fact.content]);
    await reactivateFact(scope.userId, fact.id, embedding, actor.label);
  }
  const texts = [...changing.flatMap((m) => [m.content, ...sentencesOf(m.content)]), ...plan.endingTexts];
  const keys = [
    ...plan.messageIds.map((id) => `message:${id}`),
    ...plan.ending.map((f) => `fact:${f.id}`),
    ...plan.derived.episodeIds.map((id) => `episode:${id}`),
  ];
  const recordsRedacted = await redactAuditTrail(
    scope.userId,
    { needles: texts, keys },
    () => ({ texts, keys }),
    redactionNote(actor, change === 'edit' ? 'message edited' : 'message deleted'),
  );
  // The edited message is the user's again (its new text is in the chat); a removed one's text is gone.
  const reason = reasonOf(change);
  await audit(actor, scope.userId, [
    ...changing.map((m) => ({
      objectType: 'message',
      objectId: m.id,
      action: change === 'edit' && m === changing[0] ? 'edit' : 'delete',
      before: { role: m.role, conversationId: m.conversationId, content: redactedText },
      after: null,
    })),
    ...applied.endedCurrent.map((id) => ({ objectType: 'fact', objectId: id, action: 'end', before: null, after: { reason } })),
    ...applied.restored.map((f) => ({
      objectType: 'fact',
      objectId: f.id,
      action: 'restore',
      before: null,
      after: { content: f.content },
    })),
  ]);
  return { recordsRedacted };
}

export type MessageRemoval = MessageCorrectionCounts & { removed: number; recordsRedacted: number };

/** Removes messages (one, or a whole conversation's when clearing it) with everything derived from them alone. */
export async function removeMessages(
  scope: Scope,
  messageIds: string[],
  actor: string | Actor,
): Promise<MessageRemoval & { undo: UndoRef | null }> {
  const plan = await planMessageCorrection(scope, messageIds, actor, 'remove');
  const { applied, changed: removed } = await getDb().transaction((tx) =>
    applyMessageCorrection(tx, plan, (tx) => deleteMessages(tx, scope, messageIds)),
  );
  const { recordsRedacted } = await finishMessageCorrection(plan, applied);
  scheduleRederivation(scope.userId);
  return { ...plan.counts, removed, recordsRedacted, undo: applied.undo };
}
