import { otherMethods, route, uuidParam } from '@/lib/http';
import { getImport } from '@/lib/import-queue';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** One of the user's imports: its status and progress; another user's is a 404. */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  return Response.json({ import: await getImport(user.id, uuidParam((await params).id, 'Import')) });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, DELETE, PATCH } = otherMethods(['GET']);
