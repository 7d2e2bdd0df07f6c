import { getDb } from '@/db/client';
import { deleteEpisodes, episodeSources, getEpisode } from '@/db/episodes';
import { editFact, getFact } from '@/db/facts';
import { getMessages } from '@/db/history';
import { addRedactions, redactionsOf, updateCorrections } from '@/db/provenance';
import type { Fact } from '@/db/schema';
import { correctionsOfFacts } from '@/db/undo';
import { type Actor, asActor, audit, redactedText } from '@/lib/audit';
import { getModels } from '@/lib/llm';
import { indexTerms } from '@/lib/text/index-terms';
import { redactAuditTrail, redactionNote } from '../edits/audit-redaction';
import { endFacts, type ForgetRequestSource, type ForgetResult } from '../edits/forget-facts';
import { dedupe, planRedactions, quotesOfMessages, repliesHolding } from '../edits/quotes';
import { queueRederivation, summariesCovering } from '../edits/rederive';
import { captureUndoable, type UndoRef } from '../edits/undo-capture';
import { embedTexts } from '../embed';
import { scheduleRederivation } from '../jobs/queue';

/**
 * Deletes facts everywhere (see `endFacts`), as a person asks: in the memory page, the staff
 * console, the API, or in the chat (`request`: the message that asked, so its reply says so).
 */
export async function forgetFacts(
  userId: string,
  factIds: string[],
  by: string | Actor,
  reason = 'fact deleted',
  request?: ForgetRequestSource,
): Promise<ForgetResult> {
  const facts = (await Promise.all(factIds.map((id) => getFact(userId, id)))).filter((f): f is Fact => f !== undefined);
  const result = await endFacts(userId, facts, asActor(by), reason, request);
  scheduleRederivation(userId);
  return result;
}

/**
 * A person edits a fact: later memory holds the new text, never the old. The statement's spans
 * become corrections (memory reads the new text there); the recent window keeps the original
 * words, and the prompt marks the fact as the user's correction of them.
 */
export async function correctFact(
  userId: string,
  factId: string,
  content: string,
  by: string | Actor,
): Promise<{ fact: Fact; undo: UndoRef } | undefined> {
  const edited = await correctFacts(userId, [factId], content, by);
  return edited && { fact: edited.facts[0], undo: edited.undo };
}

/**
 * `correctFact` of several facts at once, as one change with one undo: the facts one statement gave
 * (one per kind) are one memory item, and a correction of its text is a correction of each.
 * Facts not found (not the user's, or gone) are left out; undefined when none is found.
 */
export async function correctFacts(
  userId: string,
  factIds: string[],
  content: string,
  by: string | Actor,
): Promise<{ facts: Fact[]; undo: UndoRef } | undefined> {
  const actor = asActor(by);
  const facts = (await Promise.all([...new Set(factIds)].map((id) => getFact(userId, id)))).filter((f): f is Fact => f !== undefined);
  if (facts.length === 0) return undefined;
  const ids = facts.map((f) => f.id);
  const [embedding] = await embedTexts(getModels(), [content]);
  // Where the facts' current text was stated or quoted (their earlier corrections included, as a
  // reply may quote an earlier correction): corrected to the new text, old parts not repeated.
  const plan = await planRedactions(userId, facts, 'corrected', content, actor.label);
  const known = new Set(
    (
      await redactionsOf(
        userId,
        plan.rows.map((r) => r.messageId),
      )
    ).map((r) => `${r.messageId}:${r.spanStart}:${r.spanEnd}`),
  );
  // The facts of one statement share its spans: each span is corrected once.
  const fresh = dedupe(plan.rows.filter((r) => !known.has(`${r.messageId}:${r.spanStart}:${r.spanEnd}`)));
  const edit = await getDb().transaction(async (tx) => {
    const corrections = await correctionsOfFacts(tx, userId, ids);
    const old: Fact[] = [];
    const updated: string[] = [];
    for (const id of ids) {
      const edited = await editFact(tx, userId, id, content, indexTerms(content), embedding, actor.label);
      if (!edited) continue;
      old.push(edited.old);
      updated.push(...(await updateCorrections(tx, userId, id, content, actor.label)));
    }
    if (old.length === 0) return undefined;
    const added = await addRedactions(tx, fresh);
    const copies = await repliesHolding(tx, userId, corrections);
    const touched = [...new Set([...updated, ...copies, ...fresh.map((r) => r.messageId)])];
    const undo = await captureUndoable(tx, {
      userId,
      kind: 'fact_edit',
      actor: actor.label,
      factId: old[0].id,
      touches: [...old.map((f) => `fact:${f.id}`), ...touched.map((id) => `message:${id}`)],
      snapshot: { rows: { facts: old, messageRedactions: corrections }, addedRedactions: added, rederive: { messages: touched } },
    });
    const messages = await getMessages(userId, touched, tx);
    await queueRederivation(tx, userId, { reindex: touched, rebuild: await summariesCovering(tx, userId, messages) });
    return { undo, old };
  });
  if (!edit) return undefined;
  scheduleRederivation(userId);
  await audit(
    actor,
    userId,
    edit.old.map((fact) => ({
      objectType: 'fact' as const,
      objectId: fact.id,
      action: 'edit' as const,
      before: { content: fact.content },
      after: { content },
    })),
  );
  const edited = (await Promise.all(edit.old.map((fact) => getFact(userId, fact.id)))).filter((f): f is Fact => f !== undefined);
  return edited.length > 0 ? { facts: edited, undo: edit.undo } : undefined;
}

/**
 * Forgets one remembered exchange: its messages are marked forgotten as a whole (the chat keeps
 * them, marked), so no memory reads them again (the episode goes and is not indexed again, a
 * summary covering them is rebuilt, the window sends them as forgotten), and turn records that
 * quoted the exchange are redacted, as are the sentences of other replies that quoted its words. Facts learned from it stay: they are listed, and deleted, on
 * their own.
 */
export async function forgetEpisode(userId: string, episodeId: string, by: string | Actor): Promise<ForgetResult | undefined> {
  const actor = asActor(by);
  const episode = await getEpisode(userId, episodeId);
  if (!episode) return undefined;
  const messages = await getMessages(userId, await episodeSources(userId, episodeId));
  const rows = messages
    .filter((m) => m.content.length > 0)
    .map((m) => ({
      messageId: m.id,
      userId,
      kind: 'forgotten' as const,
      spanStart: 0,
      spanEnd: m.content.length,
      factId: null,
      replacement: null,
      actor: actor.label,
    }));
  // Replies elsewhere that quoted the exchange's words lose those sentences, and are derived again.
  const quotes = await quotesOfMessages(userId, messages, actor.label);
  const quoting = await getMessages(userId, [...new Set(quotes.map((r) => r.messageId))]);
  const touched = [...messages, ...quoting].map((m) => m.id);
  const undo = await getDb().transaction(async (tx) => {
    await deleteEpisodes(tx, userId, [episodeId]);
    const added = await addRedactions(tx, dedupe([...rows, ...quotes]));
    const rebuild = await summariesCovering(tx, userId, [...messages, ...quoting]);
    await queueRederivation(tx, userId, { reindex: quoting.map((m) => m.id), rebuild });
    return captureUndoable(tx, {
      userId,
      kind: 'episode_forget',
      actor: actor.label,
      touches: touched.map((id) => `message:${id}`),
      snapshot: { addedRedactions: added, rederive: { messages: touched } },
    });
  });
  scheduleRederivation(userId);
  const texts = [episode.content, ...episode.content.split('\n'), ...messages.map((m) => m.content)];
  const keys = [`episode:${episodeId}`];
  const recordsRedacted = await redactAuditTrail(
    userId,
    { needles: texts, keys },
    () => ({ texts, keys }),
    redactionNote(actor, 'remembered exchange deleted'),
  );
  await audit(actor, userId, [
    {
      objectType: 'episode',
      objectId: episodeId,
      action: 'delete',
      before: { content: redactedText },
      after: { messagesMarked: messages.length, recordsRedacted },
    },
  ]);
  return { deleted: [episodeId], messagesMarked: messages.length, recordsRedacted, undo };
}
