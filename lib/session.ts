import type { User } from '@/db/schema';
import { resolveSessionUser } from '@/db/users';
import { HttpError } from './http';
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
