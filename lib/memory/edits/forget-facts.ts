import { getDb } from '@/db/client';
import { deleteFacts } from '@/db/facts';
import { getMessages } from '@/db/history';
import { addRedactions, forgetCorrections, type NewRedaction } from '@/db/provenance';
import type { Fact } from '@/db/schema';
import { correctionsOfFacts, factRowsOf } from '@/db/undo';
import { type Actor, audit, redactedText } from '@/lib/audit';
import { redactAuditTrail, redactionNote } from './audit-redaction';
import { planRedactions, repliesHolding } from './quotes';
import { queueRederivation, summariesCovering } from './rederive';
import { captureUndoable, type UndoRef } from './undo-capture';

/** Why facts were forgotten when the user asked in the chat: shown in their history and in redacted records, so in a member's words. */
export const ASKED_IN_CHAT = 'asked in the chat to forget it';

/** The chat message that asked to forget, with the redaction of its own words that name the thing. */
export type ForgetRequestSource = { messageId: string; redactions: NewRedaction[] };

export type ForgetResult = { deleted: string[]; messagesMarked: number; recordsRedacted: number; undo: UndoRef | null };

/**
 * Ends facts everywhere: the rows and embeddings go; their statements are redacted in the messages
 * (the chat keeps them, marked; the recent window sends them with the forgotten part replaced) and
 * leave episodes and summaries, which are derived again without them; turn records that quoted
 * them are redacted. Shared by a person's deletion and a user's request to forget in the chat
 * (`request`: the message that asked, and the part of it naming what to forget, redacted with the
 * facts so that undoing brings the message back as written). Undoable (everything it removed is
 * kept until then).
 */
export async function endFacts(
  userId: string,
  facts: Fact[],
  actor: Actor,
  reason: string,
  request?: ForgetRequestSource,
): Promise<ForgetResult> {
  if (facts.length === 0) return { deleted: [], messagesMarked: 0, recordsRedacted: 0, undo: null };
  const plan = await planRedactions(userId, facts, 'forgotten', null, actor.label);
  plan.rows.push(...(request?.redactions ?? []));
  const sourceMessageId = request?.messageId;
  const ids = facts.map((f) => f.id);
  const { deleted, marked, undo } = await getDb().transaction(async (tx) => {
    const kept = await factRowsOf(tx, userId, ids);
    const corrections = await correctionsOfFacts(tx, userId, ids);
    const deleted = (await deleteFacts(tx, userId, ids)).map((r) => r.id);
    const corrected = await forgetCorrections(tx, userId, deleted, actor.label);
    const added = await addRedactions(tx, plan.rows);
    const copies = await repliesHolding(tx, userId, corrections);
    const touched = [...new Set([...plan.rows.map((r) => r.messageId), ...corrected, ...copies])];
    const undo =
      deleted.length === 0
        ? null
        : await captureUndoable(tx, {
            userId,
            kind: 'fact_delete',
            actor: actor.label,
            sourceMessageId,
            touches: [...deleted.map((id) => `fact:${id}`), ...touched.map((id) => `message:${id}`)],
            snapshot: { rows: { ...kept, messageRedactions: corrections }, addedRedactions: added, rederive: { messages: touched } },
          });
    const marked = await getMessages(userId, touched, tx);
    await queueRederivation(tx, userId, { reindex: touched, rebuild: await summariesCovering(tx, userId, marked) });
    return { deleted, marked, undo };
  });
  const keys = deleted.map((id) => `fact:${id}`);
  const recordsRedacted = await redactAuditTrail(
    userId,
    { needles: plan.texts, keys },
    () => ({ texts: plan.texts, keys }),
    redactionNote(actor, reason),
  );
  await audit(
    actor,
    userId,
    facts
      .filter((f) => deleted.includes(f.id))
      .map((f) => ({
        objectType: 'fact',
        objectId: f.id,
        action: 'delete',
        before: { slot: f.slot, content: redactedText },
        after: { reason, messagesMarked: marked.length, recordsRedacted },
      })),
  );
  return { deleted, messagesMarked: marked.length, recordsRedacted, undo };
}
