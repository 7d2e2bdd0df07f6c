import { getDb } from '@/db/client';
import { listFacts } from '@/db/facts';
import { addRedactions, type NewRedaction, redactionsOf } from '@/db/provenance';
import type { Message } from '@/db/schema';
import type { Actor } from '@/lib/audit';
import { ASKED_IN_CHAT } from '../edits/forget-facts';
import type { ForgetInChat } from '../forget-outcome';
import { rules } from '../rules/bounded';
import type { FactSlot } from '../rules/facts';
import { forgetFacts } from '.';

/**
 * A request to forget said in the chat ("Please forget that I love jazz.", "请忘记我的地址"). It is
 * done in the turn, before the reply is generated, through the same correction as a deletion in the
 * memory page, so neither memory nor the recent window holds the thing when the model answers; the
 * question itself is sent with the part that names it forgotten, and the model is told only that it
 * was forgotten, never what it was.
 */

/**
 * When the question asks to forget something: forgets it, and marks the part of the question that
 * names it ("that I love jazz", "my address, 12 Baker Street"; not "everything") forgotten, so it is
 * never sent again. Null for any other question. A Retry of the request finds the facts already
 * gone: nothing is left to forget then.
 */
export async function forgetBeforeReply(question: Message, actor: Actor): Promise<ForgetInChat | null> {
  const request = await rules.detectForgetRequest(question.content);
  if (!request) return null;
  const active = await listFacts(question.userId, 'active');
  const covered = await rules.factsToForget(
    request,
    active.map((f) => ({ id: f.id, slot: f.slot as FactSlot, text: f.content, value: f.value })),
  );
  const redactions = await requestRedactions(question, request.all, actor);
  // With facts to forget, the request's words go in the same change, and its undo brings them back.
  if (covered.length === 0) {
    await addRedactions(getDb(), redactions);
    return { done: false };
  }
  const { deleted } = await forgetFacts(question.userId, covered, actor, ASKED_IN_CHAT, { messageId: question.id, redactions });
  return { done: deleted.length > 0 };
}

/** The part of the request that names what to forget, unless an earlier redaction already covers it ("everything" names nothing). */
async function requestRedactions(question: Message, all: boolean, actor: Actor): Promise<NewRedaction[]> {
  const object = all ? null : await rules.forgetRequestObject(question.content);
  if (!object) return [];
  const earlier = await redactionsOf(question.userId, [question.id]);
  if (earlier.some((r) => r.kind === 'forgotten' && r.spanStart <= object.start && r.spanEnd >= object.end)) return [];
  return [
    {
      messageId: question.id,
      userId: question.userId,
      kind: 'forgotten',
      spanStart: object.start,
      spanEnd: object.end,
      factId: null,
      replacement: null,
      actor: actor.label,
    },
  ];
}
