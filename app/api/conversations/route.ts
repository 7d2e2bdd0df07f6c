import { createConversation, listConversations } from '@/db/conversations';
import { otherMethods, readJson, route } from '@/lib/http';
import { requireReader, requireUserOrStartGuest } from '@/lib/session';
import { strictObject, text } from '@/lib/validation';

export const titleSchema = text().trim().min(1, 'must not be empty').max(200, 'is longer than 200 characters');

export const GET = route(async (request: Request) => {
  const user = await requireReader(request);
  return Response.json({ conversations: await listConversations(user.id) });
});

/** POST { title? }: a new conversation; a browser's first one starts its guest session (the body is checked first). */
export const POST = route(async (request: Request) => {
  // An empty body is fine: the conversation gets the default title.
  const { title } = await readJson(request, strictObject({ title: titleSchema.optional() }), { emptyAs: {} });
  const user = await requireUserOrStartGuest(request);
  return Response.json({ conversation: await createConversation(user.id, title) }, { status: 201 });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, PUT, DELETE, PATCH } = otherMethods(['GET', 'POST']);
