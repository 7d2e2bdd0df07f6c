import { otherMethods, readNoBody, route, uuidParam } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { retryImport } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** POST: queues a dead import again, resumed from where it stopped (staff only; audited). */
export const POST = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  const id = uuidParam((await params).id, 'Import');
  await readNoBody(request);
  return Response.json({ import: await retryImport({ user, request }, id) });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { GET, HEAD, OPTIONS, PUT, DELETE, PATCH } = otherMethods(['POST']);
