import { getDb } from '@/db/client';
import { getMessage } from '@/db/history';
import { derivedFrom } from '@/db/provenance';
import { userActor } from '@/lib/audit';
import { notFound } from '@/lib/errors';
import { otherMethods, readNoBody, route, uuidParam } from '@/lib/http';
import { removeMessages } from '@/lib/memory/corrections';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  const message = await getMessage(user.id, id);
  if (!message) throw notFound('Message', id);
  // Provenance in reverse: every memory derived from this message.
  return Response.json({ message, derived: await derivedFrom(getDb(), user.id, [id]) });
});

export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  await readNoBody(request);
  const message = await getMessage(user.id, id);
  if (!message) throw notFound('Message', id);
  await removeMessages({ userId: user.id, conversationId: message.conversationId }, [id], userActor(user, request));
  return Response.json({ deleted: id });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, PATCH } = otherMethods(['GET', 'DELETE']);
