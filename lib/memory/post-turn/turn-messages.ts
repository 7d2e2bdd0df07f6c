import { getMessage, userMessagesAnsweredBy } from '@/db/history';
import type { Message } from '@/db/schema';
import { memoryFloor } from '@/db/users';
import { readRedacted, type RedactionReader } from '../redaction';

export type Turn = {
  /** The reply as the reader reads it (forgotten parts gone, corrections applied for memory). */
  answer: Message;
  /** The user messages it answers, oldest first, as the reader reads them; none said before a "forget everything". */
  questions: Message[];
  /** The questions as stored, for locating a statement in what the user actually wrote. */
  original: Message[];
  /** The reply follows another reply with no user message between (an imported monologue, a continuation). */
  answersNothing: boolean;
};

/** The assistant message a job is about and the user messages it answers, as memory may read them. */
export async function loadTurn(userId: string, assistantMessageId: string, reader: RedactionReader = 'memory'): Promise<Turn | undefined> {
  const stored = await getMessage(userId, assistantMessageId);
  if (!stored) return undefined;
  const floor = await memoryFloor(userId);
  if (stored.seq <= floor) return undefined;
  const answered = await userMessagesAnsweredBy({ userId, conversationId: stored.conversationId }, stored.id);
  const original = answered.filter((q) => q.seq > floor);
  const [answer, ...questions] = await readRedacted([stored, ...original], reader);
  return { answer, questions, original, answersNothing: answered.length === 0 };
}
