import { otherMethods, route } from '@/lib/http';
import { auditEntry } from '@/lib/services/audit-log';
import { requireStaff } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** One audit entry (staff only). */
export const GET = route(async (request: Request, { params }: Params) => {
  await requireStaff(request);
  return Response.json({ entry: await auditEntry((await params).id) });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
