import { DomainError, notFound } from '@/lib/errors';
import { otherMethods, readJson, route, uuidParam } from '@/lib/http';
import { requireStaff } from '@/lib/session';
import { clearSummaryAsStaff, reasonSchema } from '@/lib/staff';

type Params = { params: Promise<{ id: string }> };

/** DELETE { reason }: clears a conversation's summary as staff (audited with the reason). */
export const DELETE = route(async (request: Request, { params }: Params) => {
  const user = await requireStaff(request);
  const id = uuidParam((await params).id, 'Conversation');
  const { reason } = await readJson(request, reasonSchema);
  const result = await clearSummaryAsStaff({ user, request }, id, reason);
  if (result.status === 'missing') throw notFound('Summary of conversation', id);
  if (result.status === 'stale') throw new DomainError('stale_version', 'The summary changed meanwhile; reload and try again.');
  return Response.json({ summary: result.summary });
});

// Any other method: a 405 JSON error naming the allowed ones.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH } = otherMethods(['DELETE']);
