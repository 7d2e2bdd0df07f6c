import { otherMethods, readNoBody, route, uuidParam } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { retryJob } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** POST: runs a job again now (staff only; audited). */
export const POST = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  const id = uuidParam((await params).id, 'Job');
  await readNoBody(request);
  return Response.json({ job: await retryJob({ user, request }, id) });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { GET, HEAD, OPTIONS, PUT, DELETE, PATCH } = otherMethods(['POST']);
