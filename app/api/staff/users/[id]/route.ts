import { otherMethods, route, uuidParam } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { userOverview } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** One user's account, conversations and facts (staff only; audited). */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  return Response.json(await userOverview({ user, request }, uuidParam((await params).id, 'User')));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
