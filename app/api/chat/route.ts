import { runChatTurn } from '@/lib/chat-turn';
import { readJsonBody, route } from '@/lib/http';
import { requireUser } from '@/lib/session';

/** POST { conversationId, message: { id?, text } } or { conversationId, trigger: 'regenerate-message' }: streams the reply. */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  return runChatTurn(user, await readJsonBody(request), request);
});
