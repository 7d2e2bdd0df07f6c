import { otherMethods, readJson, readNoBody, route, uuidParam } from '@/lib/http';
import { conversationOf, deleteConversationOf, renameConversationOf, titleSchema } from '@/lib/services/conversations';
import { requireUser } from '@/lib/session';
import { strictObject } from '@/lib/validation';

type Params = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  return Response.json({ conversation: await conversationOf(user.id, id) });
});

export const PATCH = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  const { title } = await readJson(request, strictObject({ title: titleSchema }));
  return Response.json({ conversation: await renameConversationOf(user.id, id, title) });
});

export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  await readNoBody(request);
  await deleteConversationOf(user.id, id);
  return Response.json({ deleted: id });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT } = otherMethods(['GET', 'PATCH', 'DELETE']);
