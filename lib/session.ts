import { getConversation } from '@/db/conversations';
import type { Scope } from '@/db/history';
import type { User } from '@/db/schema';
import { adoptAccount, createGuest, guestsFromAddress, userOfAccount } from '@/db/users';
import { getAuth, isStaffEmail } from './auth';
import { clientAddress } from './client-address';
import { getConfig } from './config';
import { DomainError, notFound } from './errors';
import { setCookiesFor, uuidParam } from './http';
import { changeRole } from './roles';

type AuthSession = NonNullable<Awaited<ReturnType<ReturnType<typeof getAuth>['api']['getSession']>>>;

/**
 * The user of a request: the member signed in, else the guest of this browser (both are better-auth
 * sessions; a guest is an anonymous account). Without a session: 401. Nothing is made here.
 */
export async function requireUser(request: Request): Promise<User> {
  const user = await sessionUser(request.headers, { write: isWrite(request) });
  if (!user)
    throw new DomainError('no_session', 'No session yet: a guest session starts with your first conversation, fact or import, or sign in.');
  return user;
}

/**
 * For the writes that make something new (a conversation, a fact, an import): a browser without a
 * session becomes a guest here, and the response carries its new session cookie. Page views and
 * other requests never make one.
 */
export async function requireUserOrStartGuest(request: Request): Promise<User> {
  const user = await sessionUser(request.headers, { write: true });
  if (user) return user;
  const started = await startGuest(request.headers);
  setCookiesFor(request, started.setCookies);
  return started.user;
}

/** Nobody's id: no row has it, so a read with it finds nothing. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

/**
 * For list reads (conversations, facts, episodes, memory counts): a browser without a session is an
 * empty guest, answered with empty lists, so a first page view needs no session and makes none.
 */
export async function requireReader(request: Request): Promise<Pick<User, 'id'>> {
  return (await sessionUser(request.headers, { write: false })) ?? { id: NOBODY };
}

/** Staff only: signed-out callers (guests included) get 401, everyone else 403. */
export async function requireStaff(request: Request): Promise<User> {
  const member = await signedInMember(request.headers);
  if (!member) throw new DomainError('not_signed_in', 'Sign in with a staff account to use the staff console.');
  if (member.role !== 'staff') throw new DomainError('forbidden', 'The staff console is for staff accounts only.');
  return member;
}

/** The member signed in (not a guest), if any. */
export async function signedInMember(headers: Headers): Promise<User | undefined> {
  const session = await getAuth().api.getSession({ headers });
  return session && !session.user.isAnonymous ? memberOf(session) : undefined;
}

/** For server components and reads: the user of this session, if there is one; never makes anything. */
export async function userFromHeaders(headers: Headers): Promise<User | undefined> {
  return sessionUser(headers, { write: false });
}

async function sessionUser(headers: Headers, { write }: { write: boolean }): Promise<User | undefined> {
  const session = await getAuth().api.getSession({ headers });
  if (!session) return undefined;
  if (!session.user.isAnonymous) return memberOf(session);
  // A guest's row is made with its session; one lost since (deleted by DELETE /api/me) is made again by a write only.
  return (await userOfAccount(session.user.id)) ?? (write ? createGuest(session.user.id, clientAddress(headers)) : undefined);
}

/**
 * The member behind a better-auth session. Staff come only from an invite (lib/staff-invite.ts), never
 * from the session: a listed address is not staff by being listed, signed up or verified. STAFF_EMAILS
 * is read on every request for one thing: staff whose invite came from the list are users again once
 * they are taken off it (staff invited by hand stay staff until `npm run user:grant-staff -- --revoke`).
 */
async function memberOf(session: AuthSession): Promise<User> {
  // No row yet: the account's first use in a browser without a guest.
  const member =
    (await userOfAccount(session.user.id)) ??
    (await adoptAccount({ authUserId: session.user.id, email: session.user.email, name: session.user.name }));
  if (member.role === 'staff' && member.staffVia === 'STAFF_EMAILS' && !isStaffEmail(session.user.email))
    return (await changeRole(member, 'user', 'STAFF_EMAILS'))!;
  return member;
}

/**
 * A new guest: an anonymous better-auth session (its HTTP route is not served), whose user row
 * lib/auth.ts makes with the account. New guests are bounded per client address and hour, when the
 * address is known; there is no global bound, which would let anyone lock every new visitor out. The
 * bound is checked here rather than in a better-auth hook: an error thrown through better-auth comes
 * back wrapped in its own error class.
 */
export async function startGuest(headers: Headers): Promise<{ user: User; setCookies: string[] }> {
  await boundGuests(clientAddress(headers));
  const { headers: answer, response } = await getAuth().api.signInAnonymous({ headers, returnHeaders: true });
  return {
    user: (await userOfAccount(response!.user.id)) ?? (await createGuest(response!.user.id, clientAddress(headers))),
    setCookies: answer.getSetCookie(),
  };
}

async function boundGuests(address: string | null): Promise<void> {
  if (!address || (await guestsFromAddress(address)) < getConfig().GUESTS_PER_ADDRESS_PER_HOUR) return;
  throw new DomainError('too_many_guests', 'Too many new guest sessions from your address in the last hour; sign in, or try again later.', {
    retryAfterSeconds: 3600,
  });
}

const isWrite = (request: Request) => !['GET', 'HEAD', 'OPTIONS'].includes(request.method);

/** The signed-in user's scope in one of their conversations; any other id is not found. */
export async function requireConversationScope(request: Request, params: Promise<{ id: string }>): Promise<Scope & { user: User }> {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  if (!(await getConversation(user.id, id))) throw notFound('Conversation', id);
  return { userId: user.id, conversationId: id, user };
}
