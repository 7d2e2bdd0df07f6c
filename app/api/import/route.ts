import { getConfig } from '@/lib/config';
import { otherMethods, readJson, route } from '@/lib/http';
import { importSchema } from '@/lib/import';
import { listImports, queueImport, scheduleImports } from '@/lib/import-queue';
import { enforceRateLimit } from '@/lib/rate-limit';
import { requireReader, requireUserOrStartGuest } from '@/lib/session';

/**
 * POST { title?, messages: [{ role, content, metadata?, createdAt? }] }: validated whole, then queued
 * for the worker (202 with the import and its Location; GET /api/import/:id follows its progress).
 * A browser's first import starts its guest session, once the body has passed.
 */
export const POST = route(async (request: Request) => {
  // Imports are larger than other bodies: they have their own limit.
  const input = await readJson(request, importSchema, { maxBytes: getConfig().MAX_IMPORT_BODY_BYTES });
  const user = await requireUserOrStartGuest(request);
  await enforceRateLimit('import', user.id);
  const queued = await queueImport(user.id, input);
  scheduleImports();
  return Response.json({ import: queued }, { status: 202, headers: { Location: `/api/import/${queued.id}` } });
});

/** The signed-in user's imports, newest first (the last 50). */
export const GET = route(async (request: Request) => {
  const user = await requireReader(request);
  return Response.json({ imports: await listImports(user.id) });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, PUT, DELETE, PATCH } = otherMethods(['GET', 'POST']);
