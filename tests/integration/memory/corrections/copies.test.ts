import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { DELETE as forgetEpisode } from '@/app/api/episodes/[id]/route';
import { DELETE as deleteFact } from '@/app/api/facts/[id]/route';
import { getSql } from '@/db/client';
import { contextText, previewContext } from '@/lib/memory/context/preview';
import { type Client, newClient, params, readChunks } from '@/tests/support/app';
import { postTurnSettled } from '@/tests/support/memory';

// A correction reaches every copy of what it corrects: a reply that quoted the statement, the
// exchange made from that reply, and later contexts in this conversation and in a new one.

async function say(client: Client, conversationId: string, text: string): Promise<{ id: string; text: string }> {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  await postTurnSettled(client.user.id);
  const id = chunks.find((c) => c.type === 'start')!.messageId as string;
  const [reply] = await getSql()`select content from messages where id = ${id}`;
  return { id, text: reply.content as string };
}

async function newConversation(client: Client): Promise<string> {
  return (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
}

const CASES = [
  {
    lang: 'en',
    statement: 'Honestly, anchovies belong on every salad.',
    filler: ['How long should pasta rest after draining?', 'Any idea for a quick lunch?'],
    question: 'Do I like fish on my salad?',
    word: 'anchovies',
    later: 'Which fish did I say goes on salads?',
  },
  {
    lang: 'zh',
    statement: '说实话，我觉得香菜放在汤里最好喝。',
    filler: ['米饭要煮多久？', '周末有什么好玩的？'],
    question: '我觉得汤里放什么最好？',
    word: '香菜',
    later: '我说过汤里放哪种菜最好？',
  },
];

describe('a correction reaches the copies of what it corrects', () => {
  it.each(CASES)('forgetting a statement and the fact learned from it also takes it out of a reply that quoted it ($lang)', async (c) => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    await say(client, conversationId, c.statement);
    for (const text of c.filler) await say(client, conversationId, text);
    const quoting = await say(client, conversationId, c.question);
    expect(quoting.text, 'the reply quotes the statement').toContain(c.word);

    const [episode] = await getSql()`select e.id from episodes e join memory_sources s on s.episode_id = e.id
      join messages m on m.id = s.message_id where e.user_id = ${client.user.id} and m.content = ${c.statement} limit 1`;
    expect(episode).toBeDefined();
    expect(
      (await forgetEpisode(client.request(`/api/episodes/${episode.id}`, { method: 'DELETE' }), params({ id: episode.id }))).status,
    ).toBe(200);
    const facts =
      await getSql()`select id from facts where user_id = ${client.user.id} and status = 'active' and content like ${`%${c.word}%`}`;
    for (const fact of facts)
      expect((await deleteFact(client.request(`/api/facts/${fact.id}`, { method: 'DELETE' }), params({ id: fact.id }))).status).toBe(200);
    await postTurnSettled(client.user.id);

    const episodes = await getSql()`select content from episodes where user_id = ${client.user.id} and content like ${`%${c.word}%`}`;
    expect(
      episodes.map((e) => e.content),
      JSON.stringify(episodes),
    ).toEqual([]);
    for (const where of [conversationId, await newConversation(client)]) {
      const text = contextText(await previewContext({ userId: client.user.id, conversationId: where }, c.later));
      expect(text.replace(c.later, '')).not.toContain(c.word);
    }
  });
});
