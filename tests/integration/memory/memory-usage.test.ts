import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { GET as listEpisodes } from '@/app/api/episodes/route';
import { GET as listFacts } from '@/app/api/facts/route';
import { getSql } from '@/db/client';
import { type Client, newClient, readChunks, setEnv } from '@/tests/support/app';
import { importTurns, postTurnSettled } from '@/tests/support/memory';

type Usage = { count: number; sent: number; replies: Array<{ messageId: string }> };

async function factUsage(client: Client): Promise<Map<string, Usage & { content: string }>> {
  const { facts } = await (await listFacts(client.request('/api/facts?status=active'))).json();
  return new Map(facts.map((f: { id: string; content: string; usedIn: Usage }) => [f.id, { ...f.usedIn, content: f.content }]));
}

async function episodeUsage(client: Client): Promise<Map<string, Usage>> {
  const { episodes } = await (await listEpisodes(client.request('/api/episodes'))).json();
  return new Map(episodes.map((e: { id: string; usedIn: Usage }) => [e.id, e.usedIn]));
}

async function ask(client: Client, conversationId: string, text: string): Promise<string> {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  await postTurnSettled(client.user.id);
  return chunks.find((c) => c.type === 'start')!.messageId as string;
}

/** The memory keys each reply's context held and cited, as its latest citations row stored them. */
async function storedUse(userId: string) {
  const rows = await getSql()`
    select distinct on (assistant_message_id) assistant_message_id, items, cited_keys
    from citations where user_id = ${userId} order by assistant_message_id, created_at desc`;
  return rows.map((row) => ({
    given: new Set((row.items as Array<{ key: string }>).map((i) => i.key)),
    cited: new Set(row.cited_keys as string[]),
  }));
}

describe('how many replies a memory item was sent with, and how many cited it', () => {
  it('counts facts and remembered exchanges sent in a context apart from those cited', async () => {
    setEnv({ EPISODE_SCOPE: 'related' });
    const client = await newClient();
    await importTurns(
      client.user.id,
      [
        ['My sister Ingrid teaches violin. I am vegetarian.', 'Lovely.'],
        ['我在杭州做软件测试。', '明白了。'],
      ],
      'Introductions',
    );
    const [other] = await getSql()`insert into conversations (user_id, title) values (${client.user.id}, 'Questions') returning id`;
    const before = await factUsage(client);
    expect([...before.values()].every((u) => u.sent === 0 && u.count === 0)).toBe(true);

    await ask(client, other.id, 'What instrument does my sister teach?');
    await ask(client, other.id, '我在哪个城市工作？');
    await ask(client, other.id, 'Suggest a dinner for me tonight.');

    const stored = await storedUse(client.user.id);
    const facts = await factUsage(client);
    for (const [id, usage] of facts) {
      const key = `fact:${id}`;
      expect(usage.sent, usage.content).toBe(stored.filter((s) => s.given.has(key) || s.cited.has(key)).length);
      expect(usage.count, usage.content).toBe(stored.filter((s) => s.cited.has(key)).length);
      expect(usage.replies).toHaveLength(usage.count);
    }
    // Three replies over few facts: some fact went with more replies than cited it.
    expect([...facts.values()].some((u) => u.sent > u.count)).toBe(true);

    const episodes = await episodeUsage(client);
    expect(episodes.size).toBeGreaterThan(0);
    for (const [id, usage] of episodes) {
      const key = `episode:${id}`;
      expect(usage.sent).toBe(stored.filter((s) => s.given.has(key) || s.cited.has(key)).length);
      expect(usage.count).toBe(stored.filter((s) => s.cited.has(key)).length);
    }
    expect([...episodes.values()].some((u) => u.sent > 0)).toBe(true);
    // The offline model cites what it quotes: some item, a fact or an exchange, was cited.
    expect([...facts.values(), ...episodes.values()].some((u) => u.count > 0)).toBe(true);

    // A reply (imported, so it had no context of its own) given one fact without citing it: sent once more, cited as often as before.
    const [id, usage] = [...facts.entries()][0];
    const elsewhere = await importTurns(client.user.id, [['Any plans for spring?', 'Not yet.']], 'Later');
    const [reply] = await getSql()`select id from messages where conversation_id = ${elsewhere} and role = 'assistant'`;
    await getSql()`insert into citations (assistant_message_id, conversation_id, request_id, user_id, items, cited_keys, retrieval_runs)
      values (${reply.id}, ${elsewhere}, ${crypto.randomUUID()}, ${client.user.id}, ${JSON.stringify([{ key: `fact:${id}` }])}::jsonb, '{}', '[]'::jsonb)`;
    expect((await factUsage(client)).get(id)).toMatchObject({ count: usage.count, sent: usage.sent + 1 });
  });
});
