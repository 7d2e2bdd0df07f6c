import { otherMethods, route, uuidParam } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { turnForStaff } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** Any reply's turn record, read-only (staff only; audited). */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  return Response.json(await turnForStaff({ user, request }, uuidParam((await params).id, 'Message')));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
