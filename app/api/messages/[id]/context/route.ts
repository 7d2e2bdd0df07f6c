import { getCitations, getTurnRecord } from '@/db/turns';
import { notFound, route, uuidParam } from '@/lib/http';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** The turn record of an assistant message: everything the inspector shows, and its citations. */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  const turn = await getTurnRecord(user.id, id);
  if (!turn) throw notFound('Context of message', id);
  return Response.json({ context: turn.record, requestId: turn.requestId, citations: await getCitations(user.id, id) });
});
