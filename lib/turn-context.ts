import { getMessage } from '@/db/history';
import { getCitations, getTurnRecords } from '@/db/turns';
import { notFound } from './errors';
import { HttpError } from './http';

/**
 * The turn record of an assistant message (its latest attempt), its citations and the records of
 * earlier attempts. When there is none, the error says truthfully why.
 */
export async function turnContext(userId: string, messageId: string) {
  const [latest, ...prior] = await getTurnRecords(userId, messageId);
  if (!latest) throw await whyNoRecord(userId, messageId);
  return {
    context: latest.record,
    requestId: latest.requestId,
    attempt: latest.attempt,
    priorAttempts: prior.map((row) => ({ attempt: row.attempt, requestId: row.requestId, createdAt: row.createdAt, record: row.record })),
    citations: await getCitations(userId, messageId),
  };
}

async function whyNoRecord(userId: string, id: string): Promise<Error> {
  const message = await getMessage(userId, id);
  if (!message) return notFound('Message', id);
  if (message.role === 'user') return new HttpError(404, 'not_a_reply', 'This is a user message; only replies have a recorded context.');
  if (message.model === 'imported') {
    return new HttpError(404, 'imported_reply', 'This reply was imported with its conversation, so no context was assembled for it.');
  }
  if (message.status === 'failed') {
    return new HttpError(
      404,
      'failed_before_context',
      `This reply failed before its context was assembled: ${message.error ?? 'unknown error'}`,
    );
  }
  return new HttpError(404, 'no_record', 'No context is stored for this reply.');
}
