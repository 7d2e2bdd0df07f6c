import { getMessage, userMessagesAnsweredBy } from '@/db/history';
import type { Message } from '@/db/schema';

/** The assistant message a job is about, and the user messages it answers (oldest first). */
export async function loadTurn(userId: string, assistantMessageId: string): Promise<{ answer: Message; questions: Message[] } | undefined> {
  const answer = await getMessage(userId, assistantMessageId);
  if (!answer) return undefined;
  const questions = await userMessagesAnsweredBy({ userId, conversationId: answer.conversationId }, answer.id);
  return { answer, questions };
}
