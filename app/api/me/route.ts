import { DomainError } from '@/lib/errors';
import { otherMethods, readNoBody, route } from '@/lib/http';
import { deleteAccount, modelInfo, whoIs } from '@/lib/services/account';
import { userFromHeaders } from '@/lib/session';

/** GET /api/me: who this browser is; before its first write, a guest with no id yet (nothing is made). */
export const GET = route(async (request: Request) => {
  const user = await userFromHeaders(request.headers);
  return Response.json({ user: whoIs(user), model: modelInfo() });
});

/** DELETE /api/me: the user and everything they own (conversations, messages, memory) go at once. */
export const DELETE = route(async (request: Request) => {
  // Nothing to delete without a session: no guest is made just to be deleted.
  const user = await userFromHeaders(request.headers);
  if (!user) throw new DomainError('no_session', 'No session: there is nobody here to delete.');
  await readNoBody(request);
  await deleteAccount(user, request);
  return Response.json({ deleted: user.id });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, PATCH } = otherMethods(['GET', 'DELETE']);
