import { userActor } from '@/lib/audit';
import { otherMethods, readNoBody, route, uuidParam } from '@/lib/http';
import { undoChange } from '@/lib/memory/corrections/undo';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/**
 * Undoes a correction (or a fact a reply learned or replaced) within UNDO_WINDOW_MINUTES: 404 for
 * another user's, 409 `already_undone` or `undo_blocked` (a later change touched the same memory),
 * 410 `undo_expired`.
 */
export const POST = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Change');
  await readNoBody(request);
  return Response.json(await undoChange(user.id, id, userActor(user, request)));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(['POST']);
