import { shortId } from './ui/format';

/** Who reads: the user about their own memory ("you"), or staff about a user's ("the user"). */
export type Viewer = { audience: 'owner' } | { audience: 'staff'; ownerId: string };

/**
 * `user:<uuid>` → "you" for the user (or, for staff, "the user" when it is the owner and "staff …"
 * otherwise), `model:x` → "model x", anything else as is.
 */
export function describeActor(actor: string, viewer: Viewer = { audience: 'owner' }): string {
  if (actor.startsWith('user:')) {
    if (viewer.audience === 'owner') return 'you';
    const id = actor.slice('user:'.length);
    return id === viewer.ownerId ? 'the user' : `staff ${shortId(id)}`;
  }
  if (actor.startsWith('model:')) return `model ${actor.slice(6)}`;
  return actor;
}
