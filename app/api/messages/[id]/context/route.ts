import { otherMethods, route, uuidParam } from '@/lib/http';
import { requireUser } from '@/lib/session';
import { turnContext } from '@/lib/turn-context';

type Params = { params: Promise<{ id: string }> };

/**
 * The turn record of an assistant message (its latest attempt): everything the inspector shows, its
 * citations, and the records of earlier attempts (a Retry keeps them). When there is none, the 404
 * says truthfully why.
 */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  return Response.json(await turnContext(user.id, uuidParam((await params).id, 'Message')));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
