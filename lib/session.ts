import type { User } from '@/db/schema';
import { resolveSessionUser } from '@/db/users';
import { getConversation } from '@/db/conversations';
import type { Scope } from '@/db/history';
import { HttpError, notFound, uuidParam } from './http';
import { sessionTokenFrom, TOKEN_SHAPE } from './session-cookie';

/** The signed-in (for now: guest) user of a request. Route handlers call this first. */
export async function requireUser(request: Request): Promise<User> {
  const token = sessionTokenFrom(request.headers.get('cookie'));
  if (!token) throw new HttpError(401, 'no_session', 'No session cookie: load the app once to get one.');
  return resolveSessionUser(token);
}

/** For server components, which read the cookie through next/headers. */
export async function userFromToken(token: string | undefined): Promise<User | undefined> {
  return token && TOKEN_SHAPE.test(token) ? resolveSessionUser(token) : undefined;
}

/** The signed-in user's scope in one of their conversations; any other id is a 404. */
export async function requireConversationScope(request: Request, params: Promise<{ id: string }>): Promise<Scope> {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  if (!(await getConversation(user.id, id))) throw notFound('Conversation', id);
  return { userId: user.id, conversationId: id };
}
