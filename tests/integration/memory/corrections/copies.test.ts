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
  const response = await chat(client.request('/api/chat', { body: { conversationId, message: { text } } }));
  if (response.status !== 200) throw new Error(`the chat answered ${response.status}: ${await response.text()}`);
  const chunks = await readChunks(response);
  await postTurnSettled(client.user.id);
  const start = chunks.find((c) => c.type === 'start');
  if (!start) throw new Error(`the chat answered ${JSON.stringify(chunks).slice(0, 400)}`);
  const id = start.messageId as string;
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

  it.each([
    {
      lang: 'en',
      statement: 'I have a dog named Biscuit.',
      question: 'Remind me what my dog is called?',
      followUp: 'And how old is it?',
      word: 'Biscuit',
    },
    { lang: 'zh', statement: '我养了一只狗，叫饼干。', question: '我的狗叫什么来着？', followUp: '它几岁了？', word: '饼干' },
  ])("deleting a fact leaves no copy of it in any field of an earlier reply's record ($lang)", async (c) => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    await say(client, conversationId, c.statement);
    await say(client, conversationId, 'What is a good way to clean a kettle?');
    const asked = await say(client, conversationId, c.question);
    const [before] = await getSql()`select record::text as record from turn_records where assistant_message_id = ${asked.id}`;
    expect(before.record).toContain(c.word);
    // A follow-up: its rewritten query reads the window, where the reply quoted the name.
    const followUp = await say(client, conversationId, c.followUp);
    const [next] = await getSql()`select record->'retrieval' as retrieval from turn_records where assistant_message_id = ${followUp.id}`;
    console.info(c.lang, JSON.stringify(next.retrieval));

    const facts =
      await getSql()`select id from facts where user_id = ${client.user.id} and status = 'active' and content like ${`%${c.word}%`}`;
    expect(facts.length).toBeGreaterThan(0);
    for (const fact of facts)
      expect((await deleteFact(client.request(`/api/facts/${fact.id}`, { method: 'DELETE' }), params({ id: fact.id }))).status).toBe(200);
    await postTurnSettled(client.user.id);

    const rows = [
      ...(await getSql()`select assistant_message_id, record from turn_records where user_id = ${client.user.id}`),
      // The citation rows keep copies of the items sent and of the retrieval runs.
      ...(await getSql()`select assistant_message_id, json_build_object('items', items, 'runs', retrieval_runs) as record
        from citations where user_id = ${client.user.id}`),
    ];
    for (const row of rows) {
      const fields: string[] = [];
      const walk = (value: unknown, path: string) => {
        if (typeof value === 'string' && value.includes(c.word)) fields.push(`${path}: ${value.slice(0, 160)}`);
        else if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`);
        else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
      };
      walk(row.record, 'record');
      // The user's own words stay in the chat and in what was sent of them; every other copy goes.
      expect(
        fields.filter((f) => !f.startsWith('record.question') && !f.includes(c.question)),
        row.assistant_message_id,
      ).toEqual([]);
    }
  });
});
