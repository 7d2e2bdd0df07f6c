import { deleteAllMemory } from '@/db/users';
import { route } from '@/lib/http';
import { requireUser } from '@/lib/session';

/** DELETE /api/memory: forget everything about the signed-in user (and nothing of anyone else). */
export const DELETE = route(async (request: Request) => {
  const user = await requireUser(request);
  return Response.json({ deleted: await deleteAllMemory(user.id) });
});
