import { userActor } from '@/lib/audit';
import { otherMethods, readNoBody, route } from '@/lib/http';
import { clearConversation } from '@/lib/services/conversations';
import { conversationMessages } from '@/lib/services/messages';
import { requireConversationScope } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** The messages as written, each with `marks`: the parts memlens forgot (or the user corrected) and no longer sends. */
export const GET = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  return Response.json({ messages: await conversationMessages(scope) });
});

/** Clears the conversation: every message goes, with what was derived from them alone; the conversation stays. */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const scope = await requireConversationScope(request, params);
  await readNoBody(request);
  return Response.json({ removed: await clearConversation(scope, userActor(scope.user, request)) });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, PATCH } = otherMethods(['GET', 'DELETE']);
