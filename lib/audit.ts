import { type AuditText, appendAudit, appendReadOncePerView, type NewAuditEntry } from '@/db/audit';
import type { User } from '@/db/schema';
import { REDACTED } from './memory/redaction';
import { sentRequestId } from './request-id';

/**
 * Who did something, for the audit log: a user (themselves or, as staff, someone else), or the
 * system (a post-turn rule or model). `label` is what memory records carry (`user:<id>`, `offline-rules`).
 */
export type Actor = {
  label: string;
  userId: string | null;
  role: 'user' | 'staff' | 'system';
  requestId: string | null;
  reason: string | null;
};

export function userActor(user: Pick<User, 'id' | 'role'>, request?: Request, reason?: string | null): Actor {
  return {
    label: `user:${user.id}`,
    userId: user.id,
    role: user.role,
    requestId: (request && sentRequestId(request.headers)) ?? crypto.randomUUID(),
    reason: reason ?? null,
  };
}

/**
 * Staff correcting someone else's memory: labelled `staff:<id>` in memory records, so the owner's
 * views say staff did it, with the reason staff gave.
 */
export function staffActor(user: Pick<User, 'id' | 'role'>, request: Request | undefined, reason: string): Actor {
  return { ...userActor(user, request, reason), label: `staff:${user.id}` };
}

export function systemActor(label: string): Actor {
  return { label, userId: null, role: 'system', requestId: null, reason: null };
}

/** Older call sites pass the label alone. */
export function asActor(actor: string | Actor): Actor {
  if (typeof actor !== 'string') return actor;
  const [kind, id] = actor.split(':', 2);
  const userId = (kind === 'user' || kind === 'staff') && id ? id : null;
  const role = kind === 'staff' ? 'staff' : userId ? 'user' : 'system';
  return { label: actor, userId, role, requestId: null, reason: null };
}

/** What a deleted or forgotten thing looked like, for the log: its shape, never its text. */
export const redactedText = REDACTED;

type Entry = Pick<NewAuditEntry, 'objectType' | 'objectId' | 'action' | 'before' | 'after'>;

export async function audit(actor: Actor, targetUserId: string, entries: Entry[]): Promise<void> {
  await auditEach(
    actor,
    entries.map((entry) => ({ ...entry, targetUserId })),
  );
}

/** The fields of an entry's before and after that hold a member's words (a fact's or a summary's text). */
const MEMBER_TEXT = ['content'];

type Side = Record<string, unknown> | null;

/** Splits one side of an entry into what the entry keeps and the member's words, which go to the payload. */
function splitSide(value: unknown): { kept: unknown; text: Side } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { kept: value ?? null, text: null };
  const entries = Object.entries(value);
  // The redaction mark is no one's words: it stays in the entry.
  const isText = ([key, text]: [string, unknown]) => MEMBER_TEXT.includes(key) && text !== redactedText;
  const text = entries.filter(isText);
  if (text.length === 0) return { kept: value, text: null };
  return { kept: Object.fromEntries(entries.filter((entry) => !isText(entry))), text: Object.fromEntries(text) };
}

function withTextApart<E extends Entry>(entry: E): E & { text?: AuditText } {
  const before = splitSide(entry.before);
  const after = splitSide(entry.after);
  if (!before.text && !after.text) return entry;
  return { ...entry, before: before.kept, after: after.kept, text: { before: before.text, after: after.text } };
}

/** Entries about several users at once (a listing that shows each one's data), in one insert. */
export async function auditEach(actor: Actor, entries: Array<Entry & { targetUserId: string }>): Promise<void> {
  await appendAudit(
    entries.map((entry) => ({
      ...withTextApart(entry),
      actor: actor.label,
      actorUserId: actor.userId,
      actorRole: actor.role,
      reason: actor.reason,
      requestId: actor.requestId,
    })),
  );
}

/** How long a view's id keeps its reads to one entry: a view kept open longer is audited again. */
const VIEW_MINUTES = 30;

/**
 * A staff read that belongs to a view (a console page, or one turn record opened on it): the first
 * read of a user's data in the view is written, the view's later reads of that user are not.
 */
export async function auditReadInView(
  actor: Actor,
  targetUserId: string,
  object: { objectType: string; objectId: string | null },
  view: string,
) {
  await appendReadOncePerView(
    {
      ...object,
      targetUserId,
      action: 'read',
      before: null,
      after: null,
      actor: actor.label,
      actorUserId: actor.userId,
      actorRole: actor.role,
      reason: actor.reason,
      requestId: actor.requestId,
    },
    view,
    VIEW_MINUTES,
  );
}
