import { otherMethods, route, uuidParam } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { conversationForStaff } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** Any conversation with its messages (marks included) and summary (staff only; audited). */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  return Response.json(await conversationForStaff({ user, request }, uuidParam((await params).id, 'Conversation')));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
