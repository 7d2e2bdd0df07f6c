import { getConversation } from '@/db/conversations';
import type { Scope } from '@/db/history';
import type { User } from '@/db/schema';
import { adoptAccount, findSessionUser, memberOf, recentGuests, resolveSessionUser } from '@/db/users';
import { changeRole } from './roles';
import { getAuth, isStaffEmail } from './auth';
import { getConfig } from './config';
import { HttpError, notFound, uuidParam } from './http';
import { sessionTokenFrom, TOKEN_SHAPE } from './session-cookie';

/**
 * The user of a request: the member signed in (a better-auth session), else the guest behind the
 * session cookie. A cookie seen for the first time becomes a new guest, within the hourly bounds.
 */
export async function requireUser(request: Request): Promise<User> {
  const member = await signedInMember(request.headers);
  if (member) return member;
  const token = sessionTokenFrom(request.headers.get('cookie'));
  if (!token) throw new HttpError(401, 'no_session', 'No session cookie: load the app once to get one, or sign in.');
  return guestFor(token, clientAddress(request.headers));
}

/** Staff only: signed-out callers get 401, everyone else 403. */
export async function requireStaff(request: Request): Promise<User> {
  const member = await signedInMember(request.headers);
  if (!member) throw new HttpError(401, 'not_signed_in', 'Sign in with a staff account to use the staff console.');
  if (member.role !== 'staff') throw new HttpError(403, 'forbidden', 'The staff console is for staff accounts only.');
  return member;
}

/**
 * The member behind a better-auth session. STAFF_EMAILS is read on every request: a listed email
 * is staff once the account has proven it owns the address (followed the verification link), and
 * staff who came from the list are users again once they are taken off it (staff granted by hand
 * stay staff until `npm run user:grant-staff -- --revoke`).
 */
export async function signedInMember(headers: Headers): Promise<User | undefined> {
  const session = await getAuth().api.getSession({ headers });
  if (!session) return undefined;
  // No row yet: an account made outside the app.
  const member = (await memberOf(session.user.id)) ?? (await adoptAccount({ authUserId: session.user.id, email: session.user.email, name: session.user.name }));
  const listed = session.user.emailVerified && isStaffEmail(session.user.email);
  if (listed && member.role !== 'staff') return changeRole(member, 'staff', 'STAFF_EMAILS');
  if (!listed && member.role === 'staff' && member.staffVia === 'STAFF_EMAILS') return changeRole(member, 'user', 'STAFF_EMAILS');
  return member;
}

async function guestFor(token: string, address: string | null): Promise<User> {
  const known = await findSessionUser(token);
  if (known) return known;
  const config = getConfig();
  const recent = await recentGuests(address);
  if (recent.fromAddress >= config.GUESTS_PER_ADDRESS_PER_HOUR || recent.total >= config.GUESTS_PER_HOUR) {
    throw new HttpError(429, 'too_many_guests', 'Too many new guest sessions from here in the last hour; sign in, or try again later.', undefined, { 'retry-after': '3600' });
  }
  return resolveSessionUser(token, address);
}

/** The client's address as the nearest proxy reports it (x-forwarded-for), else unknown. */
function clientAddress(headers: Headers): string | null {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || headers.get('x-real-ip') || null;
}

/** For server components, which read the cookie through next/headers. */
export async function userFromHeaders(headers: Headers, token: string | undefined): Promise<User | undefined> {
  const member = await signedInMember(headers);
  if (member) return member;
  return token && TOKEN_SHAPE.test(token) ? guestFor(token, clientAddress(headers)).catch(() => undefined) : undefined;
}

/** The signed-in user's scope in one of their conversations; any other id is a 404. */
export async function requireConversationScope(request: Request, params: Promise<{ id: string }>): Promise<Scope & { user: User }> {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  if (!(await getConversation(user.id, id))) throw notFound('Conversation', id);
  return { userId: user.id, conversationId: id, user };
}
