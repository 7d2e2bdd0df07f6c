import { listMessages, removeAllMessages } from '@/db/history';
import { route } from '@/lib/http';
import { requireConversationScope } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

export const GET = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  return Response.json({ messages: await listMessages(scope) });
});

/** Clears the conversation: every message goes, the conversation stays. */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  return Response.json({ removed: await removeAllMessages(scope) });
});
