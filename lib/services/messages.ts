import { listAudit } from '@/db/audit';
import { getDb } from '@/db/client';
import { getMessage, listMessages, type Scope } from '@/db/history';
import { derivedFrom, redactionsOf } from '@/db/provenance';
import type { Message } from '@/db/schema';
import { memoryFloor } from '@/db/users';
import type { Actor } from '../audit';
import { notFound } from '../errors';
import { labelForOwner, staffReasonsByFact } from '../memory/actors';
import { removeMessages } from '../memory/corrections';
import { planMessageCorrection } from '../memory/corrections/messages';

/**
 * A part of a message memory no longer carries, as the chat marks it: who changed it (an actor label
 * as the owner reads it, see components/describe-actor.ts) and, for staff, the reason they gave.
 */
export type MessageMark = {
  start: number;
  end: number;
  kind: 'forgotten' | 'corrected';
  replacement: string | null;
  at: string;
  by: string;
  reason: string | null;
};

/**
 * The conversation's messages as the chat shows them: as written, with the parts memlens forgot or
 * the user corrected marked. A message from before the user's memory floor ("forget everything")
 * is forgotten whole: it is no longer sent to the model.
 */
export async function conversationMessages(scope: Scope): Promise<Array<Message & { marks: MessageMark[] }>> {
  const rows = await listMessages(scope);
  const spans = await redactionsOf(
    scope.userId,
    rows.map((m) => m.id),
  );
  const floor = await memoryFloor(scope.userId);
  const everything = rows.some((m) => m.seq <= floor) ? await forgetEverythingEntry(scope.userId) : undefined;
  const byOwner = (actor: string) => labelForOwner(actor, scope.userId);
  const reasons = spans.some((s) => byOwner(s.actor).startsWith('staff:')) ? await staffReasonsByFact(scope.userId) : new Map();
  return rows.map((m) => ({
    ...m,
    marks:
      m.seq <= floor
        ? [
            {
              start: 0,
              end: m.content.length,
              kind: 'forgotten',
              replacement: null,
              at: (everything?.at ?? m.createdAt).toISOString(),
              by: byOwner(everything?.actor ?? `user:${scope.userId}`),
              reason: everything?.reason ?? null,
            },
          ]
        : spans
            .filter((s) => s.messageId === m.id)
            .map((s) => {
              const by = byOwner(s.actor);
              return {
                start: s.spanStart,
                end: s.spanEnd,
                kind: s.kind,
                replacement: s.replacement,
                at: s.createdAt.toISOString(),
                by,
                reason: by.startsWith('staff:') && s.factId ? (reasons.get(s.factId) ?? null) : null,
              };
            }),
  }));
}

/** When and by whom "forget everything" was last chosen, as the audit log has it. */
async function forgetEverythingEntry(userId: string) {
  const [entry] = await listAudit({ targetUserId: userId, objectType: 'memory', action: 'forget' }, 1);
  return entry;
}

/** The user's message with every memory derived from it (provenance in reverse); anyone else's is not found. */
export async function messageWithDerived(userId: string, id: string) {
  const message = await messageOf(userId, id);
  return { message, derived: await derivedFrom(getDb(), userId, [id]) };
}

/** What removing one of the user's messages would do to memory (see `MessageCorrectionPlan`); nothing changes. */
export async function messageRemovalPlan(userId: string, id: string, actor: Actor) {
  const message = await messageOf(userId, id);
  const { counts } = await planMessageCorrection({ userId, conversationId: message.conversationId }, [id], actor, 'remove');
  return { message: { id: message.id, role: message.role, conversationId: message.conversationId }, ...counts };
}

/** Removes one of the user's messages, with what was derived from it alone; answers what it did and how to undo it. */
export async function deleteMessage(userId: string, id: string, actor: Actor) {
  const message = await messageOf(userId, id);
  const { removed: _, ...done } = await removeMessages({ userId, conversationId: message.conversationId }, [id], actor);
  return done;
}

async function messageOf(userId: string, id: string): Promise<Message> {
  const message = await getMessage(userId, id);
  if (!message) throw notFound('Message', id);
  return message;
}

/** A message as the page hands it to the chat: dates as ISO strings. */
export function toStoredMessage(message: Message & { marks: MessageMark[] }) {
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    status: message.status,
    error: message.error,
    model: message.model,
    createdAt: message.createdAt.toISOString(),
    marks: message.marks,
  };
}
