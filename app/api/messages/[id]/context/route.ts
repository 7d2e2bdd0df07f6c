import { getMessage } from '@/db/history';
import { getCitations, getTurnRecords } from '@/db/turns';
import { HttpError, notFound, route, uuidParam } from '@/lib/http';
import { requireUser } from '@/lib/session';

type Params = { params: Promise<{ id: string }> };

/**
 * The turn record of an assistant message (its latest attempt): everything the inspector shows, its
 * citations, and the records of earlier attempts (a Retry keeps them). When there is none, the 404
 * says truthfully why.
 */
export const GET = route(async (request: Request, { params }: Params) => {
  const user = await requireUser(request);
  const id = uuidParam((await params).id, 'Message');
  const [latest, ...prior] = await getTurnRecords(user.id, id);
  if (!latest) throw await whyNoRecord(user.id, id);
  return Response.json({
    context: latest.record,
    requestId: latest.requestId,
    attempt: latest.attempt,
    priorAttempts: prior.map((row) => ({ attempt: row.attempt, requestId: row.requestId, createdAt: row.createdAt, record: row.record })),
    citations: await getCitations(user.id, id),
  });
});

async function whyNoRecord(userId: string, id: string): Promise<HttpError> {
  const message = await getMessage(userId, id);
  if (!message) return notFound('Message', id);
  if (message.role === 'user') return new HttpError(404, 'not_a_reply', 'This is a user message; only replies have a recorded context.');
  if (message.model === 'imported') {
    return new HttpError(404, 'imported_reply', 'This reply was imported with its conversation, so no context was assembled for it.');
  }
  if (message.status === 'failed') {
    return new HttpError(404, 'failed_before_context', `This reply failed before its context was assembled: ${message.error ?? 'unknown error'}`);
  }
  return new HttpError(404, 'no_record', 'No context is stored for this reply.');
}
