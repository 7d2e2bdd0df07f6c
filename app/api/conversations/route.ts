import { otherMethods, readJson, route } from '@/lib/http';
import { enforceRateLimit } from '@/lib/rate-limit';
import { conversationsOf, startConversation, titleSchema } from '@/lib/services/conversations';
import { requireReader, requireUserOrStartGuest } from '@/lib/session';
import { strictObject } from '@/lib/validation';

export const GET = route(async (request: Request) => {
  const user = await requireReader(request);
  return Response.json({ conversations: await conversationsOf(user.id) });
});

/** POST { title? }: a new conversation; a browser's first one starts its guest session (the body is checked first). */
export const POST = route(async (request: Request) => {
  // An empty body is fine: the conversation gets the default title.
  const { title } = await readJson(request, strictObject({ title: titleSchema.optional() }), { emptyAs: {} });
  const user = await requireUserOrStartGuest(request);
  await enforceRateLimit('conversation', user.id);
  return Response.json({ conversation: await startConversation(user.id, title) }, { status: 201 });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, PUT, DELETE, PATCH } = otherMethods(['GET', 'POST']);
