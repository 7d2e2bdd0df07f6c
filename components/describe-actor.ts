import { shortId } from './ui/format';

/** Who reads: the user about their own memory ("you"), or staff about a user's ("the user"). */
export type Viewer = { audience: 'owner' } | { audience: 'staff'; ownerId: string };

/**
 * An actor label in the reader's words. For the owner: `user:<id>` → "you", `staff:<id>` → "staff",
 * the memory model, the offline rules or an automatic refresh → "memlens". For staff: the owner is
 * "the user", another person "staff <id>", a model "model <name>".
 */
export function describeActor(actor: string, viewer: Viewer = { audience: 'owner' }): string {
  const [kind, rest = ''] = splitLabel(actor);
  if (kind === 'staff') return viewer.audience === 'owner' ? 'staff' : `staff ${shortId(rest)}`;
  if (kind === 'user') {
    if (viewer.audience === 'owner') return 'you';
    return rest === viewer.ownerId ? 'the user' : `staff ${shortId(rest)}`;
  }
  if (kind === 'model' || actor === 'offline-rules' || actor === 'system') {
    return viewer.audience === 'owner' ? 'memlens' : kind === 'model' ? `model ${rest}` : actor;
  }
  return actor;
}

/** "staff" with the reason staff gave, when there is one. */
export function describeActorWithReason(actor: string, reason: string | null | undefined, viewer: Viewer = { audience: 'owner' }): string {
  const who = describeActor(actor, viewer);
  return reason && actor.startsWith('staff:') ? `${who} (“${reason}”)` : who;
}

function splitLabel(actor: string): [string, string?] {
  const colon = actor.indexOf(':');
  return colon < 0 ? [actor] : [actor.slice(0, colon), actor.slice(colon + 1)];
}

/**
 * Why memory was redacted or a fact ended, in a member's words. Records and histories written
 * before the reasons were worded for people held the request's message id or a "staff:" prefix.
 */
export function reasonInWords(reason: string): string {
  if (/^the user asked to forget it \(message [0-9a-f-]+\)$/u.test(reason)) return 'asked in the chat to forget it';
  const staff = /^deleted by staff: (.*)$/su.exec(reason);
  return staff ? `fact deleted (“${staff[1]}”)` : reason;
}
