import { getSql } from '@/db/client';
import { importConversation } from '@/lib/import';
import { waitFor } from './app';

type Turn = [user: string, assistant: string];

/** Imports a conversation of (user, assistant) turns for a user and returns its id. */
export async function importTurns(userId: string, turns: Turn[], title = 'imported'): Promise<string> {
  const messages = turns.flatMap(([user, assistant]) => [
    { role: 'user' as const, content: user },
    { role: 'assistant' as const, content: assistant },
  ]);
  return (await importConversation(userId, { title, messages })).conversationId;
}

/** Filler turns with nothing memorable, to push things out of the recent window. */
export function fillerTurns(count: number): Turn[] {
  const topics = [
    'boil an egg',
    'center a div',
    'fold a shirt',
    'clean a pan',
    'tie a knot',
    'plant basil',
    'wax a board',
    'sharpen a knife',
  ];
  return Array.from({ length: count }, (_, i) => [
    `How do I ${topics[i % topics.length]} (question ${i})?`,
    `Step by step, carefully (answer ${i}).`,
  ]);
}

/** Waits until every post-turn job of the user has finished (done or failed). */
export async function postTurnSettled(userId: string): Promise<void> {
  await waitFor(async () => {
    const [row] = await getSql()`select count(*)::int as n from jobs where user_id = ${userId} and status in ('pending', 'running')`;
    return row.n === 0;
  }, 15_000);
}

export async function activeFacts(userId: string): Promise<string[]> {
  const rows = await getSql()`select content from facts where user_id = ${userId} and status = 'active' order by created_at`;
  return rows.map((r) => r.content as string);
}
