import { userActor } from '@/lib/audit';
import { otherMethods, readNoBody, route } from '@/lib/http';
import { forgetEverything } from '@/lib/memory/corrections';
import { memoryCountsOf } from '@/lib/services/memory';
import { requireReader, requireUser } from '@/lib/session';

/** GET /api/memory: what "forget everything" would remove now, and what stays (for its dialog). */
export const GET = route(async (request: Request) => {
  const user = await requireReader(request);
  return Response.json(await memoryCountsOf(user.id));
});

/**
 * DELETE /api/memory: forget everything about the signed-in user (and nothing of anyone else):
 * facts, episodes, summaries and cached rewrites go, nothing said before now is remembered again,
 * and turn records keep their place with the recalled memory redacted. Conversations stay.
 */
export const DELETE = route(async (request: Request) => {
  const user = await requireUser(request);
  await readNoBody(request);
  return Response.json(await forgetEverything(user.id, userActor(user, request)));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, PATCH } = otherMethods(['GET', 'DELETE']);
