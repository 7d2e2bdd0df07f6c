import { getMessage } from '@/db/history';
import { getCitations, getTurnRecords } from '@/db/turns';
import { DomainError, notFound } from './errors';
import { labelForOwner } from './memory/actors';

/**
 * The turn record of an assistant message (its latest attempt), its citations and the records of
 * earlier attempts. When there is none, the error says truthfully why.
 */
export async function turnContext(userId: string, messageId: string) {
  const [latest, ...prior] = await getTurnRecords(userId, messageId);
  if (!latest) throw await whyNoRecord(userId, messageId, 'context');
  return {
    context: withRedactorsNamed(latest.record, userId),
    requestId: latest.requestId,
    attempt: latest.attempt,
    priorAttempts: prior.map((row) => ({
      attempt: row.attempt,
      requestId: row.requestId,
      createdAt: row.createdAt,
      record: withRedactorsNamed(row.record, userId),
    })),
    citations: await getCitations(userId, messageId),
  };
}

/** The record's redaction notes with staff's corrections labelled as staff's (older notes say `user:<staff id>`). */
function withRedactorsNamed<T>(record: T, ownerId: string): T {
  const notes = (record as { redactions?: unknown }).redactions;
  if (!Array.isArray(notes)) return record;
  return {
    ...record,
    redactions: notes.map((note: { by?: unknown }) =>
      typeof note.by === 'string' ? { ...note, by: labelForOwner(note.by, ownerId) } : note,
    ),
  };
}

/** Why a message has no turn record, said for what was asked of it: its context, or a replay of it. */
export async function whyNoRecord(userId: string, id: string, asked: 'context' | 'replay'): Promise<DomainError> {
  const message = await getMessage(userId, id);
  if (!message) return notFound('Message', id);
  const replay = asked === 'replay';
  if (message.role === 'user') {
    return new DomainError(
      'not_a_reply',
      `This is a user message; only replies have ${replay ? 'a context to replay' : 'a recorded context'}.`,
    );
  }
  if (message.model === 'imported') {
    return new DomainError(
      'imported_reply',
      replay
        ? 'This reply was imported, so no context was assembled for it: there is nothing to replay.'
        : 'This reply was imported with its conversation, so no context was assembled for it.',
    );
  }
  if (message.status === 'failed') {
    const detail = replay ? 'there is nothing to replay.' : (message.error ?? 'unknown error');
    return new DomainError('failed_before_context', `This reply failed before its context was assembled: ${detail}`);
  }
  return new DomainError('no_record', `No context is stored for this reply${replay ? ', so it cannot be replayed' : ''}.`);
}
