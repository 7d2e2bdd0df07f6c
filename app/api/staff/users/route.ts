import { route } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { findUsers } from '@/lib/staff';

/** GET /api/staff/users?q=: users by email, name or id (staff only; the search is audited). */
export const GET = route(async (request: Request) => {
  const user = await requireStaff(request);
  const q = new URL(request.url).searchParams.get('q') ?? '';
  return Response.json({ users: await findUsers({ user, request }, q.slice(0, 200)) });
});
