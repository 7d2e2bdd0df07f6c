import { getMessages, listMessages, messagesForSummary, positionOfMessage, type Scope } from '@/db/history';
import type { Message } from '@/db/schema';
import { messagePositions, type Position } from '@/db/summaries';
import { readRedacted } from '../redaction';

/** The window of a refresh, as `messagesForSummary` takes it. */
type SummaryWindow = Parameters<typeof messagesForSummary>[1];

/** What a summary refresh reads of its conversation. */
export type SummaryReader = {
  /** The stored messages the window holds, as `messagesForSummary` selects them. */
  forSummary: (window: SummaryWindow) => Promise<{ fresh: Message[]; sinceFloor: number }>;
  position: (id: string) => Promise<Position | undefined>;
  /** Messages as memory reads them (forgotten parts gone, corrections applied). */
  readForMemory: (messages: Message[]) => Promise<Message[]>;
  byIds: (ids: string[]) => Promise<Message[]>;
};

/** Each read a query: for one refresh (a chatted turn, a correction's rebuild). */
export function readFromDatabase(scope: Scope): SummaryReader {
  return {
    forSummary: (window) => messagesForSummary(scope, window),
    position: (id) => positionOfMessage(scope, id),
    readForMemory: (messages) => readRedacted(messages, 'memory'),
    byIds: (ids) => getMessages(scope.userId, ids),
  };
}

/**
 * The conversation read once, with its positions and as memory reads it: for many refreshes in a
 * row that nothing else writes to meanwhile (an import's). The same answers as `readFromDatabase`.
 */
export async function readOnce(scope: Scope): Promise<SummaryReader> {
  const conversation = await listMessages(scope);
  const positions = await messagePositions(scope);
  const forMemory = new Map((await readRedacted(conversation, 'memory')).map((m) => [m.id, m]));
  const place = new Map(conversation.map((m, i) => [m.id, i]));
  const bySeq = new Map(conversation.map((m, i) => [m.seq, i]));
  const database = readFromDatabase(scope);
  return {
    async forSummary(window) {
      const after = window.after ? bySeq.get(window.after.seq) : -1;
      // A message not among those read (written since): ask the database.
      if (after === undefined || (window.upTo !== null && !place.has(window.upTo))) return database.forSummary(window);
      const end = window.upTo === null ? conversation.length - 1 : place.get(window.upTo)!;
      const sinceFloor = conversation.slice(0, end + 1).flatMap((m, i) => (m.seq > window.floorSeq ? [i] : []));
      const older = sinceFloor.slice(0, Math.max(0, sinceFloor.length - window.keepRaw));
      return { fresh: older.filter((i) => i > after).map((i) => conversation[i]), sinceFloor: sinceFloor.length };
    },
    position: async (id) => positions.get(id),
    readForMemory: async (messages) =>
      messages.every((m) => forMemory.has(m.id)) ? messages.map((m) => forMemory.get(m.id)!) : database.readForMemory(messages),
    byIds: async (ids) => (ids.every((id) => place.has(id)) ? ids.map((id) => conversation[place.get(id)!]) : database.byIds(ids)),
  };
}
