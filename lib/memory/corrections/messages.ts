import { getDb } from '@/db/client';
import { episodeReplies } from '@/db/episodes';
import { endUnsupportedFacts, factsReplacedBy, getFact, reactivateFact } from '@/db/facts';
import { deleteMessages, getMessages, type Scope } from '@/db/history';
import { addRedactions, derivedFrom, dropRedactions, type Executor, factsOnlyFrom, unlinkFacts } from '@/db/provenance';
import type { Fact } from '@/db/schema';
import { messagesCoveredBySummary } from '@/db/summaries';
import { factRowsOf, linksAndRedactionsOf } from '@/db/undo';
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
type MessageCorrectionPlan = { factsEnded: number; episodesRederived: number; summariesRebuilt: number; repliesMarked: number };

/**
 * An edit or removal of messages, prepared before the messages change: `apply` runs inside the
 * transaction that changes them, `after` once it has committed (it answers how many turn records it
 * redacted).
 */
export type MessageCorrection = {
  plan: MessageCorrectionPlan;
  apply: (tx: Executor) => Promise<void>;
  after: () => Promise<{ recordsRedacted: number }>;
  undo: () => UndoRef | null;
};

const NOTHING: MessageCorrectionPlan = { factsEnded: 0, episodesRederived: 0, summariesRebuilt: 0, repliesMarked: 0 };

export async function prepareMessageCorrection(
  scope: Scope,
  messageIds: string[],
  by: string | Actor,
  change: 'edit' | 'remove',
): Promise<MessageCorrection> {
  if (messageIds.length === 0)
    return { plan: NOTHING, apply: async () => {}, after: async () => ({ recordsRedacted: 0 }), undo: () => null };
  const actor = asActor(by);
  const reason = change === 'edit' ? 'its source message was edited' : 'its source message was removed';
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
  const rebuilt = [...new Set([...(rebuild ? [scope.conversationId] : []), ...(await summariesCovering(scope.userId, quoting))])];
  const restore: Fact[] = [];
  let endedCurrent: string[] = [];
  let undo: UndoRef | null = null;
  return {
    undo: () => undo,
    plan: {
      factsEnded: ending.length,
      episodesRederived: derived.episodeIds.length,
      summariesRebuilt: rebuilt.length,
      repliesMarked: quoting.length,
    },
    async apply(tx) {
      const before = {
        facts: (await factRowsOf(tx, scope.userId, orphaned)).facts ?? [],
        ...(await linksAndRedactionsOf(tx, scope.userId, messageIds)),
      };
      // A fact one of the ended facts had replaced is current again, unless these messages alone
      // stated it too: then the walk goes on to the one before it.
      const unsupported = new Set(orphaned);
      const seen = new Set<string>();
      endedCurrent = await endUnsupportedFacts(tx, scope.userId, orphaned, reason, actor.label);
      for (let frontier = await factsReplacedBy(tx, scope.userId, endedCurrent); frontier.length > 0; ) {
        const fresh = frontier.filter((f) => !seen.has(f.id));
        for (const f of fresh) seen.add(f.id);
        restore.push(...fresh.filter((f) => !unsupported.has(f.id) && f.status === 'superseded'));
        frontier = await factsReplacedBy(
          tx,
          scope.userId,
          fresh.filter((f) => unsupported.has(f.id)).map((f) => f.id),
        );
      }
      await unlinkFacts(tx, scope.userId, messageIds);
      await dropRedactions(tx, scope.userId, messageIds);
      const added = await addRedactions(tx, quotes);
      if (change === 'remove') {
        const replaced =
          (
            await factRowsOf(
              tx,
              scope.userId,
              restore.map((f) => f.id),
            )
          ).facts ?? [];
        const rederive = [...messageIds, ...quoting.map((m) => m.id)];
        undo = await captureUndoable(tx, {
          userId: scope.userId,
          kind: 'message_remove',
          actor: actor.label,
          touches: [
            `conversation:${scope.conversationId}`,
            ...rederive.map((id) => `message:${id}`),
            ...[...orphaned, ...restore.map((f) => f.id)].map((id) => `fact:${id}`),
          ],
          snapshot: {
            rows: { ...before, messages: changing, facts: [...before.facts, ...replaced] },
            addedRedactions: added,
            rederive: { messages: rederive, conversations: [scope.conversationId] },
          },
        });
      }
    },
    async after() {
      const models = getModels();
      for (const fact of restore) {
        const [embedding] = await embedTexts(models, [fact.content]);
        await reactivateFact(scope.userId, fact.id, embedding, actor.label);
      }
      await queueRederivation(scope.userId, { reindex: quoting.map((m) => m.id), replies, rebuild: rebuilt });
      // Turn records and citations that quoted the old words, or recalled what is taken away with
      // them, are redacted as on a deletion of a fact.
      const texts = [...changing.flatMap((m) => [m.content, ...sentencesOf(m.content)]), ...endingPlan.texts];
      const keys = [
        ...messageIds.map((id) => `message:${id}`),
        ...ending.map((f) => `fact:${f.id}`),
        ...derived.episodeIds.map((id) => `episode:${id}`),
      ];
      const recordsRedacted = await redactAuditTrail(
        scope.userId,
        { needles: texts, keys },
        () => ({ texts, keys }),
        redactionNote(actor, change === 'edit' ? 'message edited' : 'message deleted'),
      );
      // The edited message is the user's again (its new text is in the chat); a removed one's text is gone.
      await audit(actor, scope.userId, [
        ...changing.map((m) => ({
          objectType: 'message',
          objectId: m.id,
          action: change === 'edit' && m === changing[0] ? 'edit' : 'delete',
          before: { role: m.role, conversationId: m.conversationId, content: redactedText },
          after: null,
        })),
        ...endedCurrent.map((id) => ({ objectType: 'fact', objectId: id, action: 'end', before: null, after: { reason } })),
        ...restore.map((f) => ({ objectType: 'fact', objectId: f.id, action: 'restore', before: null, after: { content: f.content } })),
      ]);
      return { recordsRedacted };
    },
  };
}

export type MessageRemoval = MessageCorrectionPlan & { removed: number; recordsRedacted: number };

/** Removes messages (one, or a whole conversation's when clearing it) with everything derived from them alone. */
export async function removeMessages(
  scope: Scope,
  messageIds: string[],
  actor: string | Actor,
): Promise<MessageRemoval & { undo: UndoRef | null }> {
  const correction = await prepareMessageCorrection(scope, messageIds, actor, 'remove');
  const removed = await getDb().transaction(async (tx) => {
    await correction.apply(tx);
    return deleteMessages(tx, scope, messageIds);
  });
  const { recordsRedacted } = await correction.after();
  scheduleRederivation(scope.userId);
  return { ...correction.plan, removed, recordsRedacted, undo: correction.undo() };
}
