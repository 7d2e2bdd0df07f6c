import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { getSql } from '@/db/client';
import { type Client, newClient, readChunks } from '@/tests/support/app';
import { postTurnSettled } from '@/tests/support/memory';

// A reply's quotes of memory are not new memory: the exchange made from a reply that quoted a statement
// keeps the reply's own words and its link to what it quoted (the citation row), not a second copy.

async function say(client: Client, conversationId: string, text: string): Promise<string> {
  const response = await chat(client.request('/api/chat', { body: { conversationId, message: { text } } }));
  expect(response.status).toBe(200);
  const start = (await readChunks(response)).find((c) => c.type === 'start');
  await postTurnSettled(client.user.id);
  return start?.messageId as string;
}

const STATEMENTS = [
  {
    lang: 'en',
    statement: 'My grandmother left me her brass telescope.',
    question: 'What did my grandmother leave me?',
    word: 'telescope',
  },
  { lang: 'zh', statement: '我外公留给我一台老式缝纫机。', question: '我外公留给我什么了？', word: '缝纫机' },
];
// Asked in the same conversation, the reply quotes the window; in a new one, a memory item it cites.
const CASES = STATEMENTS.flatMap((c) => (['same', 'new'] as const).map((asked) => ({ ...c, asked })));

describe('an exchange made from a reply that quoted memory', () => {
  it.each(CASES)('keeps the reply in its own words, linked to the quoted item ($lang, $asked conversation)', async (c) => {
    const client = await newClient();
    const open = async () =>
      (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
    const first = await open();
    await say(client, first, c.statement);
    const replyId = await say(client, c.asked === 'same' ? first : await open(), c.question);
    const [reply] = await getSql()`select content from messages where id = ${replyId}`;
    expect(reply.content, 'the reply quotes the statement').toContain(c.word);

    const [episode] = await getSql()`select content from episodes where assistant_message_id = ${replyId}`;
    expect(episode.content).toContain(c.question);
    expect(episode.content, 'the exchange holds no copy of the quoted statement').not.toContain(c.word);
    expect(episode.content).toContain('…');
    const [citation] = await getSql()`select cited_keys, repeated_keys from citations where assistant_message_id = ${replyId}`;
    expect([...citation.cited_keys, ...citation.repeated_keys].length, 'the reply is linked to what it quoted').toBeGreaterThan(0);
    // The statement itself stays findable, once: in its own exchange.
    const holding = await getSql()`select id from episodes where user_id = ${client.user.id} and content like ${`%${c.word}%`}`;
    expect(holding).toHaveLength(1);
  });
});
