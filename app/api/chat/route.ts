import { runChatTurn } from '@/lib/chat-turn';
import { otherMethods, readJsonBody, route } from '@/lib/http';
import { asLiveTurn } from '@/lib/memory/jobs/worker-signal';
import { enforceRateLimit } from '@/lib/rate-limit';
import { requireUser } from '@/lib/session';

/** POST { conversationId, message: { id?, text } } or { conversationId, trigger: 'regenerate-message' }: streams the reply. */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  await enforceRateLimit('chat', user.id);
  // Post-turn work waits while turns are live (lib/worker.ts).
  return asLiveTurn(async () => runChatTurn(user, await readJsonBody(request), request));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { GET, HEAD, OPTIONS, PUT, DELETE, PATCH } = otherMethods(['POST']);
