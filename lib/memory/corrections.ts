import { getDb } from '@/db/client';
import { deleteEpisodeOf, deleteEpisodes, episodeReplies, episodeSources, getEpisode } from '@/db/episodes';
import { deleteFacts, editFact, endUnsupportedFacts, factsReplacedBy, getFact, reactivateFact } from '@/db/facts';
import { deleteMessages, getMessages, maxSeq, type Scope } from '@/db/history';
import { resetJobs } from '@/db/jobs';
import {
  addRedactions,
  derivedFrom,
  dropRedactions,
  type Executor,
  factsOnlyFrom,
  forgetCorrections,
  redactionsOf,
  unlinkFacts,
  updateCorrections,
} from '@/db/provenance';
import type { Fact, Message } from '@/db/schema';
import { coveredUntil, getSummary, messagesCoveredBySummary, summarySources, writeSummary } from '@/db/summaries';
import { dropCachedRewrites } from '@/db/turns';
import { deleteAllMemory } from '@/db/users';
import { type Actor, asActor, audit, redactedText } from '@/lib/audit';
import { getConfig } from '@/lib/config';
import { getModels } from '@/lib/llm';
import { logError } from '@/lib/log';
import { documentTerms } from '@/lib/text/search-terms';
import { memoryItemsOf, type RedactionNote, redactAuditTrail } from './audit-redaction';
import { embedTexts } from './embed';
import { indexTurn } from './post-turn/index-episode';
import { refreshSummaryOf } from './post-turn/refresh-summary';
import { dedupe, planRedactions, quotesOfMessages } from './quotes';

/**
 * Corrections of memory: one mechanism behind every path (README, "Correcting memory").
 *
 * 1. Decide what is corrected away: spans of messages (a fact's statement and where replies quoted
 *    or cited it), facts that lose their last source, a summary's clear point, a user's memory floor.
 * 2. Record it as data: message redactions, fact status, floors.
 * 3. Derive again what was derived from the touched messages: episodes re-indexed, summaries rebuilt
 *    (both read messages with their redactions applied), the rewrite cache dropped.
 * 4. Deletions redact the turn records that quoted the deleted text (the audit trail stays).
 */

const note = (actor: Actor, reason: string): RedactionNote => ({ at: new Date().toISOString(), by: actor.label, reason });

// ── Facts ─────────────────────────────────────────────────────────────────────────────────────

/** The conversations whose current summary covers any of these messages. */
async function summariesCovering(userId: string, messages: Array<Pick<Message, 'id' | 'conversationId'>>): Promise<string[]> {
  const byConversation = new Map<string, string[]>();
  for (const m of messages) byConversation.set(m.conversationId, [...(byConversation.get(m.conversationId) ?? []), m.id]);
  const out: string[] = [];
  for (const [conversationId, ids] of byConversation) {
    if ((await messagesCoveredBySummary({ userId, conversationId }, ids)).length > 0) out.push(conversationId);
  }
  return out;
}

export type ForgetResult = { deleted: string[]; messagesMarked: number; recordsRedacted: number };

/**
 * Deletes facts everywhere: the rows and embeddings; their statements leave episodes and summaries
 * (re-indexed and rebuilt without them); the chat keeps the messages, marked; the recent window
 * sends them with the forgotten part replaced; turn records that quoted them are redacted.
 */
export async function forgetFacts(userId: string, factIds: string[], by: string | Actor, reason = 'fact deleted'): Promise<ForgetResult> {
  const actor = asActor(by);
  const facts = (await Promise.all(factIds.map((id) => getFact(userId, id)))).filter((f): f is Fact => f !== undefined);
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
  await rederive(userId, { reindex: marked.map((m) => m.id), rebuild });
  const keys = deleted.map((id) => `fact:${id}`);
  const recordsRedacted = await redactAuditTrail(
    userId,
    { needles: plan.texts, keys },
    () => ({ texts: plan.texts, keys }),
    note(actor, reason),
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

/**
 * A person edits a fact: later memory holds the new text, never the old. The statement's spans
 * become corrections (memory reads the new text there); the recent window keeps the original
 * words, and the prompt marks the fact as the user's correction of them.
 */
export async function correctFact(userId: string, factId: string, content: string, by: string | Actor): Promise<Fact | undefined> {
  const actor = asActor(by);
  const fact = await getFact(userId, factId);
  if (!fact) return undefined;
  const [embedding] = await embedTexts(getModels(), [content]);
  // Where the fact's current text was stated or quoted (its earlier corrections included, as a
  // reply may quote an earlier correction): corrected to the new text, old parts not repeated.
  const plan = await planRedactions(userId, [fact], 'corrected', content, actor.label);
  const known = new Set(
    (
      await redactionsOf(
        userId,
        plan.rows.map((r) => r.messageId),
      )
    ).map((r) => `${r.messageId}:${r.spanStart}:${r.spanEnd}`),
  );
  const fresh = plan.rows.filter((r) => !known.has(`${r.messageId}:${r.spanStart}:${r.spanEnd}`));
  const touched = await getDb().transaction(async (tx) => {
    const edited = await editFact(tx, userId, factId, content, documentTerms(content), embedding, actor.label);
    if (!edited) return [];
    const updated = await updateCorrections(tx, userId, factId, content);
    await addRedactions(tx, fresh);
    return [...new Set([...updated, ...fresh.map((r) => r.messageId)])];
  });
  const messages = await getMessages(userId, touched);
  await rederive(userId, { reindex: touched, rebuild: await summariesCovering(userId, messages) });
  await audit(actor, userId, [
    { objectType: 'fact', objectId: factId, action: 'edit', before: { content: fact.content }, after: { content } },
  ]);
  return getFact(userId, factId);
}

/**
 * Forgets one remembered exchange: its messages are marked forgotten as a whole (the chat keeps
 * them, marked), so no memory reads them again (the episode goes and is not indexed again, a
 * summary covering them is rebuilt, the window sends them as forgotten), and turn records that
 * quoted the exchange are redacted. Facts learned from it stay: they are listed, and deleted, on
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
  const rebuild = await summariesCovering(userId, messages);
  await getDb().transaction(async (tx) => {
    await deleteEpisodes(tx, userId, [episodeId]);
    await addRedactions(tx, rows);
  });
  await rederive(userId, { reindex: [], rebuild });
  const texts = [episode.content, ...episode.content.split('\n'), ...messages.map((m) => m.content)];
  const keys = [`episode:${episodeId}`];
  const recordsRedacted = await redactAuditTrail(
    userId,
    { needles: texts, keys },
    () => ({ texts, keys }),
    note(actor, 'remembered exchange deleted'),
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
  return { deleted: [episodeId], messagesMarked: messages.length, recordsRedacted };
}

// ── Messages ──────────────────────────────────────────────────────────────────────────────────

/**
 * An edit or removal of messages, prepared before the messages change: `apply` runs inside the
 * transaction that changes them, `after` once it has committed.
 */
export type MessageCorrection = { apply: (tx: Executor) => Promise<void>; after: () => Promise<void> };

export async function prepareMessageCorrection(
  scope: Scope,
  messageIds: string[],
  by: string | Actor,
  change: 'edit' | 'remove',
): Promise<MessageCorrection> {
  if (messageIds.length === 0) return { apply: async () => {}, after: async () => {} };
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
  const quotes = dedupe([
    ...(await planRedactions(scope.userId, ending, 'forgotten', null, actor.label)).rows,
    ...(await quotesOfMessages(scope.userId, changing, actor.label)),
  ]).filter((r) => !affected.has(r.messageId));
  const quoting = await getMessages(scope.userId, [...new Set(quotes.map((r) => r.messageId))]);
  const restore: Fact[] = [];
  let endedCurrent: string[] = [];
  return {
    async apply(tx) {
      // A fact one of the ended facts had replaced is current again, unless these messages alone
      // stated it too: then the walk goes on to the one before it.
      const unsupported = new Set(orphaned);
      const seen = new Set<string>();
      endedCurrent = await endUnsupportedFacts(tx, scope.userId, orphaned, reason, actor.label);
      for (let frontier = await factsReplacedBy(tx, scope.userId, endedCurrent); frontier.length > 0; ) {
        const fresh = frontier.filter((f) => !seen.has(f.id));
        fresh.forEach((f) => seen.add(f.id));
        restore.push(...fresh.filter((f) => !unsupported.has(f.id) && f.status === 'superseded'));
        frontier = await factsReplacedBy(
          tx,
          scope.userId,
          fresh.filter((f) => unsupported.has(f.id)).map((f) => f.id),
        );
      }
      await unlinkFacts(tx, scope.userId, messageIds);
      await dropRedactions(tx, scope.userId, messageIds);
      await addRedactions(tx, quotes);
    },
    async after() {
      const models = getModels();
      for (const fact of restore) {
        const [embedding] = await embedTexts(models, [fact.content]);
        await reactivateFact(scope.userId, fact.id, embedding, actor.label);
      }
      await rederive(scope.userId, {
        reindex: quoting.map((m) => m.id),
        replies,
        rebuild: [...(rebuild ? [scope.conversationId] : []), ...(await summariesCovering(scope.userId, quoting))],
      });
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
    },
  };
}

/** Removes messages (one, or a whole conversation's when clearing it) with everything derived from them alone. */
export async function removeMessages(scope: Scope, messageIds: string[], actor: string | Actor): Promise<number> {
  const correction = await prepareMessageCorrection(scope, messageIds, actor, 'remove');
  const removed = await getDb().transaction(async (tx) => {
    await correction.apply(tx);
    return deleteMessages(tx, scope, messageIds);
  });
  await correction.after();
  return removed;
}

// ── Derived memory ────────────────────────────────────────────────────────────────────────────

/**
 * Derives again what came from changed messages: the episodes of their turns are re-indexed (or
 * dropped when nothing is left of the turn), the summaries of the given conversations rebuilt, and
 * the rewrite cache dropped. A failure never leaves the old text behind: an episode that cannot be
 * re-embedded is removed and queued again, a summary that cannot be rebuilt is emptied.
 */
async function rederive(userId: string, work: { reindex: string[]; replies?: string[]; rebuild: string[] }): Promise<void> {
  const config = getConfig();
  const models = getModels();
  const derived = await derivedFrom(getDb(), userId, work.reindex);
  const replies = new Set([...(work.replies ?? []), ...(await episodeReplies(userId, derived.episodeIds))]);
  for (const reply of replies) {
    try {
      await indexTurn(userId, reply, models);
    } catch (error) {
      logError('could not re-index an episode; removed until it is indexed again', error);
      await deleteEpisodeOf(userId, reply);
      await resetJobs(userId, reply, 'index_episode');
    }
  }
  for (const conversationId of new Set(work.rebuild)) {
    const scope = { userId, conversationId };
    try {
      await refreshSummaryOf(scope, null, config, models, true);
    } catch (error) {
      logError('could not rebuild a summary; emptied until the next refresh', error);
      const current = await getSummary(scope);
      if (current) {
        await writeSummary(
          scope,
          { content: '', coveredMessageCount: 0, coveredUntil: null, sourceMessageIds: [], actor: 'system', action: 'rebuild' },
          current.version,
        );
      }
    }
  }
  await dropCachedRewrites(userId);
}

// ── Summary and everything ───────────────────────────────────────────────────────────────────

/** A person edits the summary: the text becomes the base of the next refresh; a stale `version` is refused. */
export async function editSummary(scope: Scope, content: string, version: number | undefined, by: string | Actor) {
  const actor = asActor(by);
  const current = await getSummary(scope);
  if (version !== undefined && current?.version !== version) return { status: 'stale' as const, current: current?.version ?? null };
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
  );
  if (!written) return { status: 'stale' as const, current: current?.version ?? null };
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

/** Clears a summary for good: it becomes empty and later refreshes start after the clear point. */
export async function clearSummary(scope: Scope, by: string | Actor) {
  const actor = asActor(by);
  const current = await getSummary(scope);
  if (!current) return { status: 'missing' as const };
  const floorSeq = await maxSeq(getDb(), scope);
  const written = await writeSummary(
    scope,
    { content: '', coveredMessageCount: 0, coveredUntil: null, floorSeq, sourceMessageIds: [], actor: actor.label, action: 'clear' },
    current.version,
  );
  if (!written) return { status: 'stale' as const };
  await audit(actor, scope.userId, [
    {
      objectType: 'summary',
      objectId: scope.conversationId,
      action: 'clear',
      before: { version: current.version },
      after: { version: written.version },
    },
  ]);
  return { status: 'cleared' as const, summary: written };
}

/**
 * Forget everything: no fact, episode or summary of the user remains, nothing said before now is
 * indexed, summarised or mined again, and every turn record has its recalled memory redacted.
 * Conversations, messages and the records themselves stay.
 */
export async function forgetEverything(userId: string, by: string | Actor) {
  const actor = asActor(by);
  const deleted = await deleteAllMemory(userId);
  const recordsRedacted = await redactAuditTrail(
    userId,
    { needles: [], keys: [], all: true },
    memoryItemsOf,
    note(actor, 'forget everything'),
  );
  await audit(actor, userId, [
    { objectType: 'memory', objectId: userId, action: 'forget', before: null, after: { deleted, recordsRedacted } },
  ]);
  return { deleted, recordsRedacted };
}
