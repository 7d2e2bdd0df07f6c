import { listAudit } from '@/db/audit';
import type { getFactHistory } from '@/db/facts';

/**
 * An actor label as the owner's views read it: another person acting on the owner's memory is
 * staff (`staff:<id>`), whatever label the change was recorded under (earlier staff corrections
 * were recorded as `user:<id>`).
 */
export function labelForOwner(label: string, ownerId: string): string {
  if (label.startsWith('user:') && label !== `user:${ownerId}`) return `staff:${label.slice('user:'.length)}`;
  return label;
}

type FactEventRow = Awaited<ReturnType<typeof getFactHistory>>[number];

/**
 * A fact's events for its owner: staff changes labelled as staff's, each with the reason staff gave,
 * read from the audit entry of that change (same actor, same fact, same new text). Once the member
 * erased what they said, the payload is gone and no reason is matched.
 */
export async function factEventsForOwner(ownerId: string, factId: string, events: FactEventRow[]) {
  const byOthers = events.some((event) => labelForOwner(event.actor, ownerId).startsWith('staff:'));
  const entries = byOthers ? await listAudit({ targetUserId: ownerId, objectType: 'fact', action: 'edit' }, 500) : [];
  const reasonOf = (event: FactEventRow) =>
    entries.find(
      (entry) =>
        entry.objectId === factId &&
        labelForOwner(entry.actor, ownerId) === labelForOwner(event.actor, ownerId) &&
        // The new text is the member's: kept in the entry's payload (lib/audit.ts), not the entry.
        (entry.textAfter as { content?: string } | null)?.content === event.newContent,
    )?.reason ?? null;
  return events.map((event) => {
    const actor = labelForOwner(event.actor, ownerId);
    return { ...event, actor, reason: actor.startsWith('staff:') ? reasonOf(event) : null };
  });
}

/**
 * The reason staff gave for each fact they changed (edited or deleted), newest first per fact, read
 * from the audit log; for the owner's chat, which says "changed by staff (reason)".
 */
export async function staffReasonsByFact(ownerId: string): Promise<Map<string, string>> {
  const entries = (
    await Promise.all((['edit', 'delete'] as const).map((action) => listAudit({ targetUserId: ownerId, objectType: 'fact', action }, 500)))
  )
    .flat()
    .sort((a, b) => b.id - a.id);
  const reasons = new Map<string, string>();
  for (const entry of entries) {
    if (entry.objectId && entry.reason && labelForOwner(entry.actor, ownerId).startsWith('staff:') && !reasons.has(entry.objectId))
      reasons.set(entry.objectId, entry.reason);
  }
  return reasons;
}
