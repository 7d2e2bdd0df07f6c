import { otherMethods, route, uuidParam } from '@/lib/http';
import { memoryChangesOfReply } from '@/lib/services/corrections';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/** What a reply's turn changed in memory (learned, replaced, forgotten), whether its post-turn work is still running, and how to undo each change. */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  return Response.json(await memoryChangesOfReply(user.id, uuidParam((await params).id, 'Message')));
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(['GET']);
