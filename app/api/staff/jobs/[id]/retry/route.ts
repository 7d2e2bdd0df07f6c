import { route, uuidParam } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { retryJob } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** POST: runs a job again now (staff only; audited). */
export const POST = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  return Response.json({ job: await retryJob({ user, request }, uuidParam((await params).id, 'Job')) });
});
