import { otherMethods, route, uuidParam } from '@/lib/http';
import { itemParam, whyNotRecalled } from '@/lib/memory/context/why-not-recalled';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/**
 * `?item=fact:<id>` (or `episode:<id>`, `summary:<conversation id>`): why that memory item was or
 * was not in this reply's context: sent, cut by the budget, learned later, corrected, not similar
 * enough or ranked below what was asked for, with its scores and ranks in each search.
 */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  return Response.json(await whyNotRecalled(user.id, id, itemParam(request.url)));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
