import { getAuditEntry } from '@/db/audit';
import { notFound } from '@/lib/errors';
import { otherMethods, route } from '@/lib/http';
import { requireStaff } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** One audit entry (staff only). */
export const GET = route(async (request: Request, { params }: Params) => {
  await requireStaff(request);
  const id = (await params).id;
  const entry = /^\d{1,18}$/u.test(id) ? await getAuditEntry(Number(id)) : undefined;
  if (!entry) throw notFound('Audit entry', id);
  return Response.json({ entry });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
