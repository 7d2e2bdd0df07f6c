import { deleteConversation, getConversation, renameConversation } from '@/db/conversations';
import { notFound } from '@/lib/errors';
import { otherMethods, readJson, readNoBody, route, uuidParam } from '@/lib/http';
import { requireUser } from '@/lib/session';
import { strictObject } from '@/lib/validation';
import { titleSchema } from '../route';

type Params = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  const conversation = await getConversation(user.id, id);
  if (!conversation) throw notFound('Conversation', id);
  return Response.json({ conversation });
});

export const PATCH = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  const { title } = await readJson(request, strictObject({ title: titleSchema }));
  const conversation = await renameConversation(user.id, id, title);
  if (!conversation) throw notFound('Conversation', id);
  return Response.json({ conversation });
});

export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  await readNoBody(request);
  if (!(await deleteConversation(user.id, id))) throw notFound('Conversation', id);
  return Response.json({ deleted: id });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT } = otherMethods(['GET', 'PATCH', 'DELETE']);
