import { getDb } from '@/db/client';
import { deleteFacts } from '@/db/facts';
import { getMessages } from '@/db/history';
import { addRedactions, forgetCorrections } from '@/db/provenance';
import type { Fact } from '@/db/schema';
import { type Actor, audit, redactedText } from '@/lib/audit';
import { redactAuditTrail, redactionNote } from './audit-redaction';
import { planRedactions } from './quotes';
import { queueRederivation, summariesCovering } from './rederive';

export type ForgetResult = { deleted: string[]; messagesMarked: number; recordsRedacted: number };

/**
 * Ends facts everywhere: the rows and embeddings go; their statements are redacted in the messages
 * (the chat keeps them, marked; the recent window sends them with the forgotten part replaced) and
 * leave episodes and summaries, which are derived again without them; turn records that quoted
 * them are redacted. Shared by a person's deletion and a user's request to forget in the chat.
 */
export async function endFacts(userId: string, facts: Fact[], actor: Actor, reason: string): Promise<ForgetResult> {
  if (facts.length === 0) return { deleted: [], messagesMarked: 0, recordsRedacted: 0 };
  const plan = await planRedactions(userId, facts, 'forgotten', null, actor.label);
  const { deleted, corrected } = await getDb().transaction(async (tx) => {
    const rows = await deleteFacts(
      tx,
      userId,
      facts.map((f) => f.id),
    );
    const corrected = await forgetCorrections(
      tx,
      userId,
      rows.map((r) => r.id),
    );
    await addRedactions(tx, plan.rows);
    return { deleted: rows.map((r) => r.id), corrected };
  });
  const marked = await getMessages(userId, [...new Set([...plan.rows.map((r) => r.messageId), ...corrected])]);
  const rebuild = await summariesCovering(userId, marked);
  await queueRederivation(userId, { reindex: marked.map((m) => m.id), rebuild });
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
  return { deleted, messagesMarked: marked.length, recordsRedacted };
}
