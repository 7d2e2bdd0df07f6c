import { otherMethods, readJson, route, uuidParam } from '@/lib/http';
import { type ReplayOptions, replayTurn } from '@/lib/memory/context/replay';
import { replaySchema } from '@/lib/memory/context/replay-request';
import { enforceRateLimit } from '@/lib/rate-limit';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** Replay with today's memory and the app's configuration: the context this turn would get now, and the difference. */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  await enforceRateLimit('replay', user.id);
  const id = uuidParam((await params).id, 'Message');
  return Response.json(await replayTurn({ userId: user.id }, id, { mode: 'today' }));
});

/** Replay as stored, or with today's memory and other settings: `{ mode?, budget?, window?, factsTopK?, episodesTopK?, episodeScope? }`. */
export const POST = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  await enforceRateLimit('replay', user.id);
  const id = uuidParam((await params).id, 'Message');
  const options: ReplayOptions = await readJson(request, replaySchema(), { emptyAs: {} });
  return Response.json(await replayTurn({ userId: user.id }, id, options));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, PUT, DELETE, PATCH } = otherMethods(['GET', 'POST']);
