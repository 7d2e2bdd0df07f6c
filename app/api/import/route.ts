import { getConfig } from '@/lib/config';
import { importConversation, importSchema } from '@/lib/import';
import { otherMethods, readJson, route } from '@/lib/http';
import { enforceRateLimit } from '@/lib/rate-limit';
import { requireUserOrStartGuest } from '@/lib/session';

/** POST { title?, messages: [{ role, content, metadata?, createdAt? }] }: ingest without generating. */
export const POST = route(async (request: Request) => {
  const user = await requireUserOrStartGuest(request);
  await enforceRateLimit('import', user.id);
  // Imports are larger than other bodies: they have their own limit.
  const input = await readJson(request, importSchema, { maxBytes: getConfig().MAX_IMPORT_BODY_BYTES });
  return Response.json(await importConversation(user.id, input), { status: 201 });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { GET, HEAD, OPTIONS, PUT, DELETE, PATCH } = otherMethods(['POST']);
