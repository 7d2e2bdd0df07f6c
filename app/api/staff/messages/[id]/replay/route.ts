import { otherMethods, readJson, route, uuidParam } from '@/lib/http';
import type { ReplayOptions } from '@/lib/memory/context/replay';
import { replaySchema } from '@/lib/memory/context/replay-request';
import { enforceRateLimit } from '@/lib/rate-limit';
import { requireStaff } from '@/lib/session';
import { replayForStaff } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** Any turn replayed with today's memory (staff only; audited). */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  await enforceRateLimit('replay', user.id);
  return Response.json(await replayForStaff({ user, request }, uuidParam((await params).id, 'Message'), { mode: 'today' }));
});

/** Any turn replayed as stored or with other settings, as POST /api/messages/:id/replay (staff only; audited). */
export const POST = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  await enforceRateLimit('replay', user.id);
  const id = uuidParam((await params).id, 'Message');
  const options: ReplayOptions = await readJson(request, replaySchema(), { emptyAs: {} });
  return Response.json(await replayForStaff({ user, request }, id, options));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, PUT, DELETE, PATCH } = otherMethods(['GET', 'POST']);
