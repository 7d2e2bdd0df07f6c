import { userActor } from '@/lib/audit';
import { otherMethods, route, uuidParam } from '@/lib/http';
import { messageRemovalPlan } from '@/lib/services/messages';
import { undoWindowMinutes } from '@/lib/services/recent-changes';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/**
 * What deleting this message would do, counted as the deletion counts it: facts learned only from it
 * that end, remembered exchanges derived again, summaries rebuilt, other replies marked, and for how
 * many minutes the deletion can be undone (`undoMinutes`). Nothing changes.
 */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  return Response.json({ ...(await messageRemovalPlan(user.id, id, userActor(user, request))), undoMinutes: undoWindowMinutes() });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
