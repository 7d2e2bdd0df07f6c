import { z } from 'zod';
import { listFacts, withSources } from '@/db/facts';
import { parseInput, route } from '@/lib/http';
import { requireUser } from '@/lib/session';

/** GET /api/facts?status=active|superseded|deleted (default: all): the user's facts. */
export const GET = route(async (request: Request) => {
  const user = await requireUser(request);
  const status = new URL(request.url).searchParams.get('status') ?? undefined;
  const parsed = parseInput({ status }, z.object({ status: z.enum(['active', 'superseded', 'deleted']).optional() }));
  return Response.json({ facts: await withSources(user.id, await listFacts(user.id, parsed.status)) });
});
