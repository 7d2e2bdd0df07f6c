import { getConversation } from '@/db/conversations';
import { listMessages, removeAllMessages } from '@/db/history';
import { notFound, route, uuidParam } from '@/lib/http';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

async function ownedConversation(request: Request, params: Params['params']) {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Conversation');
  if (!(await getConversation(user.id, id))) throw notFound('Conversation', id);
  return { userId: user.id, conversationId: id };
}

export const GET = route(async (request: Request, { params }: Params) => {
  const scope = await ownedConversation(request, params);
  return Response.json({ messages: await listMessages(scope) });
});

/** Clears the conversation: every message goes, the conversation stays. */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const scope = await ownedConversation(request, params);
  return Response.json({ removed: await removeAllMessages(scope) });
});
