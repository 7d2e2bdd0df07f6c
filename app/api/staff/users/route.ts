import { z } from 'zod';
import { otherMethods, parseInput, route } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { findUsers } from '@/lib/staff';
import { text } from '@/lib/validation';

/** GET /api/staff/users?q=: users by email, name or id (staff only; the search is audited). */
export const GET = route(async (request: Request) => {
  const user = await requireStaff(request);
  const { q } = parseInput({ q: new URL(request.url).searchParams.get('q') ?? '' }, z.object({ q: text() }));
  return Response.json({ users: await findUsers({ user, request }, q.slice(0, 200)) });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
