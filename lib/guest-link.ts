import { mergeGuestInto } from '@/db/merge-guest';
import type { User } from '@/db/schema';
import { adoptAccount, promoteGuest, userOfAccount } from '@/db/users';
import { audit, systemActor } from './audit';
import { SINGLE_VALUED_SLOTS } from './memory/rules/fact-types';

type AccountUser = { id: string; email: string; name: string };

/**
 * A new account, or a guest (anonymous account) who signed up or in (better-auth's anonymous plugin
 * calls this before it deletes the anonymous account). No guest: the member's row is made. Sign-up:
 * the guest becomes the new member (same user). Sign-in to
 * an existing account: the guest's conversations and memory are merged into the member's
 * (db/merge-guest.ts has the rules for conflicting facts), written to the audit log.
 */
export async function linkGuest(anonymousAuthUserId: string | null, account: AccountUser): Promise<User | undefined> {
  const guest = anonymousAuthUserId ? await userOfAccount(anonymousAuthUserId) : undefined;
  const member = await userOfAccount(account.id);
  const values = { authUserId: account.id, email: account.email, name: account.name };
  if (!guest) return member ?? adoptAccount(values);
  if (!member) return promoteGuest(guest.id, values);
  if (guest.kind !== 'guest' || guest.id === member.id) return member;

  const actor = systemActor(`sign-in:merge-guest:${guest.id}`);
  const merged = await mergeGuestInto(guest.id, member.id, SINGLE_VALUED_SLOTS, actor.label);
  await audit(actor, member.id, [
    {
      objectType: 'user',
      objectId: member.id,
      action: 'merge_guest',
      before: { guestId: guest.id },
      after: { conversations: merged.conversations, facts: merged.movedFacts.length, superseded: merged.superseded },
    },
  ]);
  return member;
}
