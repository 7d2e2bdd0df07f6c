import { getMessage, listMessages, type Scope, userMessagesAnsweredBy } from '@/db/history';
import type { Message } from '@/db/schema';
import { memoryFloor } from '@/db/users';
import { type RedactionReader, readRedacted } from '../redaction';

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
  const [turn] = await readTurns([{ stored, answered, floor }], reader);
  return turn;
}

/**
 * Many replies' turns in one conversation at once (an import's): the same turns as `loadTurn`, from
 * one read of the conversation. A reply answers the user messages since the assistant message
 * before it, by position (as `userMessagesAnsweredBy`). Replies not found or before a "forget
 * everything" are left out.
 */
export async function loadTurns(scope: Scope, assistantMessageIds: string[], reader: RedactionReader): Promise<Map<string, Turn>> {
  const wanted = new Set(assistantMessageIds);
  const floor = await memoryFloor(scope.userId);
  const stored: Array<{ stored: Message; answered: Message[]; floor: number }> = [];
  let asked: Message[] = [];
  for (const message of await listMessages(scope)) {
    if (message.role === 'user') {
      asked.push(message);
      continue;
    }
    if (wanted.has(message.id) && message.seq > floor) stored.push({ stored: message, answered: asked, floor });
    asked = [];
  }
  const turns = await readTurns(stored, reader);
  return new Map(turns.map((turn) => [turn.answer.id, turn]));
}

/** Reads turns as the reader may, all their messages in one pass (their redactions read once). */
async function readTurns(turns: Array<{ stored: Message; answered: Message[]; floor: number }>, reader: RedactionReader): Promise<Turn[]> {
  // Questions said before a "forget everything" are not memory's to read.
  const withOriginal = turns.map((t) => ({ ...t, original: t.answered.filter((q) => q.seq > t.floor) }));
  const read = await readRedacted(
    withOriginal.flatMap((t) => [t.stored, ...t.original]),
    reader,
  );
  let next = 0;
  return withOriginal.map(({ original, answered }) => {
    const answer = read[next];
    const questions = read.slice(next + 1, next + 1 + original.length);
    next += 1 + original.length;
    return { answer, questions, original, answersNothing: answered.length === 0 };
  });
}
