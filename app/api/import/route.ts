import { importConversation, importSchema } from '@/lib/import';
import { readJson, route } from '@/lib/http';
import { requireUser } from '@/lib/session';

/** POST { title?, messages: [{ role, content, metadata?, createdAt? }] }: ingest without generating. */
export const POST = route(async (request: Request) => {
  const user = await requireUser(request);
  const input = await readJson(request, importSchema);
  return Response.json(await importConversation(user.id, input), { status: 201 });
});
