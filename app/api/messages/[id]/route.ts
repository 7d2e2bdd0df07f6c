import { userActor } from '@/lib/audit';
import { otherMethods, readNoBody, route, uuidParam } from '@/lib/http';
import { deleteMessage, messageWithDerived } from '@/lib/services/messages';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  // Provenance in reverse: every memory derived from this message.
  return Response.json(await messageWithDerived(user.id, id));
});

export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  await readNoBody(request);
  // What it did: the same counts the removal plan gave, and how many turn records were redacted.
  return Response.json({ deleted: id, ...(await deleteMessage(user.id, id, userActor(user, request))) });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, PATCH } = otherMethods(['GET', 'DELETE']);
