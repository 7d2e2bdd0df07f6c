import { z } from 'zod';
import { createConversation, listConversations } from '@/db/conversations';
import { readJson, route } from '@/lib/http';
import { requireUser } from '@/lib/session';

export const titleSchema = z.string().trim().min(1, 'must not be empty').max(200, 'is longer than 200 characters');

export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  return Response.json({ conversations: await listConversations(user.id) });
});

export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  // An empty body is fine: the conversation gets the default title.
  const { title } = await readJson(request, z.object({ title: titleSchema.optional() }), { emptyAs: {} });
  return Response.json({ conversation: await createConversation(user.id, title) }, { status: 201 });
});
