import { deleteUser } from '@/db/users';
import { getConfig } from '@/lib/config';
import { otherMethods, readNoBody, route } from '@/lib/http';
import { getModels } from '@/lib/llm';
import { requireUser } from '@/lib/session';

export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  const models = getModels();
  return Response.json({
    user: { id: user.id, kind: user.kind, role: user.role, email: user.email, name: user.displayName },
    model: { chat: models.chatModelId, offline: models.offline, maxMessageChars: getConfig().MAX_MESSAGE_CHARS },
  });
});

/** DELETE /api/me: the user and everything they own (conversations, messages, memory) go at once. */
export const DELETE = route(async (request: Request) => {
  const user = await requireUser(request);
  await readNoBody(request);
  await deleteUser(user.id);
  return Response.json({ deleted: user.id });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, PATCH } = otherMethods(['GET', 'DELETE']);
