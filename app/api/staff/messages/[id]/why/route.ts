import { otherMethods, route, uuidParam } from '@/lib/http';
import { itemParam } from '@/lib/memory/context/why-not-recalled';
import { requireStaff } from '@/lib/session';
import { whyNotRecalledForStaff } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** Why a memory item of the turn's owner was or was not in this reply's context, as GET /api/messages/:id/why (staff only; audited). */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  const id = uuidParam((await params).id, 'Message');
  return Response.json(await whyNotRecalledForStaff({ user, request }, id, itemParam(request.url)));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
