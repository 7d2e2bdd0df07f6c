import { z } from 'zod';
import { otherMethods, parseInput, route } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { jobsForStaff } from '@/lib/staff';

/**
 * GET /api/staff/jobs?status=failed&userId=&before=: post-turn jobs with their failures, newest first, 100 at a
 * time (`before`: the `next` of the page before), and the count in each status (staff only).
 */
export const GET = route(async (request: Request) => {
  const user = await requireStaff(request);
  const url = new URL(request.url);
  const filter = parseInput(
    {
      status: url.searchParams.get('status') ?? undefined,
      userId: url.searchParams.get('userId') ?? undefined,
      before: url.searchParams.get('before') ?? undefined,
    },
    z.object({
      status: z.enum(['pending', 'running', 'done', 'failed', 'dead']).optional(),
      userId: z.uuid().optional(),
      before: z.coerce.number().int().positive().optional(),
    }),
  );
  return Response.json(await jobsForStaff({ user, request }, filter));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
