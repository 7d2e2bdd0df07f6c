import { afterEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as deleteEpisode, GET as getEpisode } from '@/app/api/episodes/[id]/route';
import { GET as listEpisodes } from '@/app/api/episodes/route';
import { GET as getFact } from '@/app/api/facts/[id]/route';
import { POST as addFact, GET as listFacts } from '@/app/api/facts/route';
import { getSql } from '@/db/client';
import { contextText, previewContext } from '@/lib/memory/context/preview';
import { type Client, newClient, params, readChunks, setEnv } from '@/tests/support/app';
import { activeFacts, fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

// The Memory page's API (/memory) through the real route handlers on the embedded Postgres:
// searching facts (English and Chinese), adding one by hand, how many replies used each fact, and
// the remembered exchanges (listed a page at a time, searched, deleted). Every route answers only
// for the signed-in user.

afterEach(() => setEnv({ SUMMARY_KEEP_RAW: undefined, HISTORY_WINDOW: undefined, EPISODE_SCOPE: undefined }));

type ApiFact = {
  id: string;
  content: string;
  slot: string;
  status: string;
  conversationId: string | null;
  sources: Array<{
    messageId: string;
    conversationId: string | null;
    conversationTitle: string | null;
    role: string | null;
    excerpt: string | null;
  }>;
  usedIn: { count: number; replies: Array<{ messageId: string; conversationId: string; conversationTitle: string }> };
  embedding?: unknown;
};

type ApiEpisode = {
  id: string;
  conversationId: string;
  conversationTitle: string;
  userMessageId: string;
  assistantMessageId: string;
  content: string;
  createdAt: string;
  embedding?: unknown;
};
type EpisodePage = { episodes: ApiEpisode[]; nextCursor: string | null; total: number };

async function facts(client: Client, query = ''): Promise<ApiFact[]> {
  const response = await listFacts(client.request(`/api/facts${query}`));
  expect(response.status).toBe(200);
  return (await response.json()).facts;
}

async function episodes(client: Client, query = ''): Promise<EpisodePage> {
  const response = await listEpisodes(client.request(`/api/episodes${query}`));
  expect(response.status).toBe(200);
  return response.json();
}

const post = (client: Client, body: unknown) => addFact(client.request('/api/facts', { method: 'POST', body }));

async function ask(client: Client, conversationId: string, text: string): Promise<string> {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  await postTurnSettled(client.user.id);
  return chunks.find((c) => c.type === 'start')!.messageId as string;
}

describe('searching facts', () => {
  it('finds facts by any part of their text, case aside, in English and Chinese, only the user’s own', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [
      ['My cat is called Miso.', 'Nice.'],
      ['I live in Berlin.', 'Noted.'],
      ['我的猫叫小米。', '好的。'],
      ['我住在上海。', '好的。'],
    ]);
    const stranger = await newClient();
    await importTurns(stranger.user.id, [['My cat is called Misty.', 'Nice.']]);

    const all = await facts(client);
    for (const word of ['Miso', 'Berlin', '小米', '上海']) expect(all.map((f) => f.content).join('\n')).toContain(word);
    expect(all.every((f) => !('embedding' in f))).toBe(true);

    const miso = await facts(client, '?q=MISO');
    expect(miso.map((f) => f.content)).toEqual([expect.stringContaining('Miso')]);
    expect(await facts(client, `?q=${encodeURIComponent('berl')}`)).toEqual([
      expect.objectContaining({ content: expect.stringContaining('Berlin') }),
    ]);

    const xiaomi = await facts(client, `?q=${encodeURIComponent('小米')}`);
    expect(xiaomi.map((f) => f.content)).toEqual([expect.stringContaining('小米')]);
    expect((await facts(client, `?q=${encodeURIComponent('上海')}`)).map((f) => f.content)).toEqual([expect.stringContaining('上海')]);

    // Another user's fact is never found; LIKE wildcards are taken literally; blank is "everything".
    expect(await facts(client, '?q=Misty')).toEqual([]);
    expect(await facts(client, '?q=%25')).toEqual([]);
    expect(await facts(client, '?q=_')).toEqual([]);
    expect(await facts(client, '?q=%20%20')).toHaveLength(all.length);
    expect(await facts(client, '?q=miso&status=deleted')).toEqual([]);

    // Each fact's source message: its conversation (for a link) and the words that stated it.
    expect(miso[0].sources).toEqual([
      expect.objectContaining({
        conversationId: miso[0].conversationId,
        conversationTitle: 'imported',
        role: 'user',
        excerpt: expect.stringContaining('Miso'),
      }),
    ]);

    const tooLong = await listFacts(client.request(`/api/facts?q=${'x'.repeat(201)}`));
    expect(tooLong.status).toBe(400);
  });
});

describe('listing facts a page at a time', () => {
  it('reaches every fact once through the cursors, ties on the time included; filters and bad pages as the episodes do', async () => {
    const client = await newClient();
    for (let i = 0; i < 6; i++) expect((await post(client, { content: `I own ${i} red bicycles` })).status).toBe(201);
    // Two facts changed at the same instant: the id orders them, and neither is lost between pages.
    await getSql()`update facts set updated_at = (select max(updated_at) from facts where user_id = ${client.user.id}) where user_id = ${client.user.id} and content in ('I own 2 red bicycles', 'I own 3 red bicycles')`;
    const stranger = await newClient();
    await post(stranger, { content: 'I own 9 red bicycles' });

    const list = async (query: string) => {
      const response = await listFacts(client.request(`/api/facts${query}`));
      expect(response.status, query).toBe(200);
      return (await response.json()) as { facts: ApiFact[]; nextCursor: string | null; total: number };
    };
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = '';
    // Bounded: a cursor that never ends fails the test instead of looping.
    for (let pages = 0; cursor !== null; pages++) {
      expect(pages).toBeLessThan(6);
      const page = await list(`?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.total).toBe(6);
      sizes.push(page.facts.length);
      seen.push(...page.facts.map((f) => f.content));
      cursor = page.nextCursor;
    }
    expect(sizes).toEqual([4, 2]);
    expect(seen.toSorted()).toEqual(Array.from({ length: 6 }, (_, i) => `I own ${i} red bicycles`));

    // 50 a page unless asked; a search and a status filter count only what they match.
    expect(await list('')).toMatchObject({ total: 6, nextCursor: null, facts: expect.any(Array) });
    expect(await list(`?q=${encodeURIComponent('own 4')}&limit=1`)).toMatchObject({ total: 1, nextCursor: null });
    expect(await list('?status=deleted')).toMatchObject({ total: 0, facts: [] });

    for (const query of [
      '?cursor=nonsense',
      '?limit=0',
      '?limit=101',
      `?cursor=${Buffer.from('["yesterday","x"]').toString('base64url')}`,
    ]) {
      const response = await listFacts(client.request(`/api/facts${query}`));
      expect(response.status, query).toBe(400);
    }
  });
});

describe('adding a fact by hand', () => {
  it('stores it with no source, by the user, recalled like any other fact', async () => {
    const client = await newClient();
    const response = await post(client, { content: '  I am allergic to hazelnuts.  ' });
    expect(response.status).toBe(201);
    const { fact } = (await response.json()) as { fact: ApiFact };
    expect(fact).toMatchObject({
      content: 'I am allergic to hazelnuts.',
      slot: 'statement',
      status: 'active',
      conversationId: null,
      sources: [],
      usedIn: { count: 0, sent: 0, replies: [] },
    });
    expect(fact).not.toHaveProperty('embedding');

    const detail = await (await getFact(client.request(`/api/facts/${fact.id}`), params({ id: fact.id }))).json();
    expect(detail.history).toEqual([
      expect.objectContaining({ event: 'ADD', actor: `user:${client.user.id}`, newContent: 'I am allergic to hazelnuts.' }),
    ]);
    expect(await getSql()`select actor, actor_role, action from audit_log where object_type = 'fact' and object_id = ${fact.id}`).toEqual([
      { actor: `user:${client.user.id}`, actor_role: 'user', action: 'add' },
    ]);

    const conversationId = await importTurns(client.user.id, [['Hello.', 'Hi.']]);
    const context = await previewContext({ userId: client.user.id, conversationId }, 'Which nuts should I avoid? hazelnuts?');
    expect(context.numbered.some((i) => i.key === `fact:${fact.id}`)).toBe(true);

    // Chinese, with a slot.
    const zh = await post(client, { content: '我对花生过敏。', slot: 'allergy' });
    expect(zh.status).toBe(201);
    expect((await zh.json()).fact).toMatchObject({ content: '我对花生过敏。', slot: 'allergy' });
    expect((await facts(client, `?q=${encodeURIComponent('花生')}`)).map((f) => f.content)).toEqual(['我对花生过敏。']);
  });

  it('a slot that holds one value at a time replaces its current fact, which stays in the history', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [['I live in Berlin.', 'Noted.']]);
    const [berlin] = await facts(client, '?q=Berlin');
    expect(berlin.slot).toBe('location');
    const response = await post(client, { content: 'I live in Porto.', slot: 'location' });
    expect(response.status).toBe(201);
    expect((await response.json()).replaced).toBe(berlin.id);
    expect(await activeFacts(client.user.id)).toEqual(['I live in Porto.']);
    expect((await facts(client, '?q=Berlin'))[0].status).toBe('superseded');
  });

  it.each([
    ['no content', {}, 'missing'],
    ['empty content', { content: '   ' }, 'empty'],
    ['content not text', { content: 42 }, 'invalid'],
    ['too long', { content: 'x'.repeat(2001) }, 'too_large'],
    ['unknown slot', { content: 'I like tea.', slot: 'favourite' }, 'invalid'],
    ['unknown field', { content: 'I like tea.', source: 'me' }, 'invalid'],
    ['not an object', ['I like tea.'], 'invalid'],
  ])('refuses bad input with a 400 that says what is wrong (%s)', async (_name, body, code) => {
    const client = await newClient();
    const response = await post(client, body);
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(code);
    expect(await activeFacts(client.user.id)).toEqual([]);
  });

  it('refuses a body that is not JSON and a duplicate (409); a caller with no session becomes a guest', async () => {
    const client = await newClient();
    const bad = await addFact(client.request('/api/facts', { method: 'POST', rawBody: '{content:' }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_json');

    expect((await post(client, { content: 'I like green tea.' })).status).toBe(201);
    const again = await post(client, { content: 'i like GREEN tea.' });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('duplicate');
    expect(await activeFacts(client.user.id)).toEqual(['I like green tea.']);

    // Without a session, a bad body makes nothing (400, no cookie); a good one is a first write: it starts a guest.
    const refused = await addFact(new Request('http://localhost/api/facts', { method: 'POST', body: '{content:' }));
    expect(refused.status).toBe(400);
    expect(refused.headers.get('set-cookie')).toBeNull();
    const firstWrite = await addFact(new Request('http://localhost/api/facts', { method: 'POST', body: JSON.stringify({ content: 'x' }) }));
    expect(firstWrite.status).toBe(201);
    expect(firstWrite.headers.get('set-cookie')).toMatch(/better-auth\.session_token=/u);
  });
});

describe('how many replies used a fact', () => {
  it('counts the replies that cited it, with their conversations, and only the user’s', async () => {
    // Facts alone carry memory across conversations here: the exchange they came from would be
    // recalled too (EPISODE_SCOPE=related) and might be the line the offline model quotes.
    setEnv({ EPISODE_SCOPE: 'conversation' });
    const client = await newClient();
    await importTurns(client.user.id, [['My cat is called Miso. I work as a carpenter.', 'Nice.']], 'About me');
    const before = await facts(client);
    const miso = before.find((f) => f.content.includes('Miso'))!;
    const carpenter = before.find((f) => f.content.includes('carpenter'))!;
    expect(miso.usedIn).toEqual({ count: 0, sent: 0, replies: [] });

    // Asked in another conversation: only memory can answer, and the offline model cites what it quotes.
    const [other] = await getSql()`insert into conversations (user_id, title) values (${client.user.id}, 'Pets') returning id`;
    const first = await ask(client, other.id, 'What is my cat called?');
    const second = await ask(client, other.id, 'Remind me, what is the name of my cat?');

    const after = await facts(client);
    const cited = after.find((f) => f.id === miso.id)!;
    expect(cited.usedIn.count).toBe(2);
    expect(cited.usedIn.replies.map((r) => r.messageId).sort()).toEqual([first, second].sort());
    expect(cited.usedIn.replies[0]).toMatchObject({ conversationId: other.id, conversationTitle: 'Pets' });
    expect(after.find((f) => f.id === carpenter.id)!.usedIn.count).toBe(0);

    // A reply that no longer exists is not counted (its link would lead nowhere).
    await getSql()`delete from messages where id = ${first}`;
    expect((await facts(client)).find((f) => f.id === miso.id)!.usedIn.count).toBe(1);

    // A retried reply counts by its latest attempt.
    await getSql()`insert into citations (assistant_message_id, conversation_id, request_id, user_id, items, cited_keys, retrieval_runs)
      values (${second}, ${other.id}, ${crypto.randomUUID()}, ${client.user.id}, '[]'::jsonb, ${[`fact:${carpenter.id}`]}, '[]'::jsonb)`;
    const retried = await facts(client);
    expect(retried.find((f) => f.id === miso.id)!.usedIn.count).toBe(0);
    expect(retried.find((f) => f.id === carpenter.id)!.usedIn.count).toBe(1);

    // Another user's citation of the same key (however it came about) is not counted.
    const stranger = await newClient();
    const strangers = await importTurns(stranger.user.id, [['Hello.', 'Hi.']]);
    const [reply] = await getSql()`select id from messages where conversation_id = ${strangers} and role = 'assistant'`;
    await getSql()`insert into citations (assistant_message_id, conversation_id, request_id, user_id, items, cited_keys, retrieval_runs)
      values (${reply.id}, ${strangers}, ${crypto.randomUUID()}, ${stranger.user.id}, '[]'::jsonb, ${[`fact:${carpenter.id}`]}, '[]'::jsonb)`;
    expect((await facts(client)).find((f) => f.id === carpenter.id)!.usedIn.count).toBe(1);
    expect(await facts(stranger)).toEqual([]);
  });
});

describe('remembered exchanges', () => {
  it('lists them newest first, searches them (English and Chinese), never with embeddings', async () => {
    const client = await newClient();
    const conversationId = await importTurns(
      client.user.id,
      [
        ['I repaired the gearbox of my old Saab.', 'Well done.'],
        ['我昨天去了颐和园。', '听起来很好。'],
        ['What is a good name for a goldfish?', 'Bubbles.'],
      ],
      'Weekend',
    );
    const stranger = await newClient();
    await importTurns(stranger.user.id, [['I repaired the gearbox of my Volvo.', 'Nice.']]);

    const page = await episodes(client);
    expect(page.total).toBe(3);
    expect(page.nextCursor).toBeNull();
    expect(page.episodes.map((e) => e.content)).toEqual([
      expect.stringContaining('goldfish'),
      expect.stringContaining('颐和园'),
      expect.stringContaining('gearbox'),
    ]);
    expect(
      page.episodes.every((e) => !('embedding' in e) && e.conversationId === conversationId && e.conversationTitle === 'Weekend'),
    ).toBe(true);

    expect((await episodes(client, '?q=GEARBOX')).episodes.map((e) => e.content)).toEqual([expect.stringContaining('Saab')]);
    const zh = await episodes(client, `?q=${encodeURIComponent('颐和园')}`);
    expect(zh).toMatchObject({ total: 1, episodes: [expect.objectContaining({ content: expect.stringContaining('颐和园') })] });
    expect((await episodes(client, '?q=Volvo')).episodes).toEqual([]);

    const one = page.episodes[2];
    const detail = await getEpisode(client.request(`/api/episodes/${one.id}`), params({ id: one.id }));
    expect(detail.status).toBe(200);
    expect((await detail.json()).episode).toMatchObject({
      id: one.id,
      sourceMessageIds: expect.arrayContaining([one.userMessageId, one.assistantMessageId]),
    });
  });

  it('pages through them with a cursor: every exchange once, in order, also while searching', async () => {
    const client = await newClient();
    await importTurns(
      client.user.id,
      Array.from(
        { length: 7 },
        (_, i) => [`Tell me about planet number ${i} in the list.`, `Planet ${i} is far away.`] as [string, string],
      ),
    );
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = '';
    // Bounded: a cursor that never ends fails the test instead of looping.
    for (let pages = 0; cursor !== null; pages++) {
      expect(pages).toBeLessThan(7);
      const page: EpisodePage = await episodes(client, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.total).toBe(7);
      sizes.push(page.episodes.length);
      seen.push(...page.episodes.map((e) => e.content));
      cursor = page.nextCursor;
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => expect.stringContaining(`planet number ${6 - i} `)));

    const searched = await episodes(client, `?limit=1&q=${encodeURIComponent('planet number 1 ')}`);
    expect(searched).toMatchObject({ total: 1, nextCursor: null });

    for (const query of [
      '?cursor=nonsense',
      '?limit=0',
      '?limit=101',
      `?cursor=${Buffer.from('["yesterday","x"]').toString('base64url')}`,
    ]) {
      const response = await listEpisodes(client.request(`/api/episodes${query}`));
      expect(response.status, query).toBe(400);
    }
  });

  it('deleting one: another user gets 404; afterwards recall never brings its text back', async () => {
    const client = await newClient();
    // Far enough back to be recalled as an exchange, not sent in the recent window.
    setEnv({ SUMMARY_KEEP_RAW: '4', HISTORY_WINDOW: '4' });
    const conversationId = await importTurns(client.user.id, [
      ['I repaired the gearbox of my old Saab.', 'Well done.'],
      ['I have a parrot named Kiwi.', 'Lovely.'],
      ...fillerTurns(4),
    ]);
    const scope = { userId: client.user.id, conversationId };
    const target = (await episodes(client, '?q=gearbox')).episodes[0];
    const other = await newClient();

    for (const caller of [other]) {
      const response = await deleteEpisode(caller.request(`/api/episodes/${target.id}`, { method: 'DELETE' }), params({ id: target.id }));
      expect(response.status).toBe(404);
      expect((await getEpisode(caller.request(`/api/episodes/${target.id}`), params({ id: target.id }))).status).toBe(404);
    }
    const malformed = await deleteEpisode(client.request('/api/episodes/not-a-uuid', { method: 'DELETE' }), params({ id: 'not-a-uuid' }));
    expect(malformed.status).toBe(404);
    expect((await episodes(client)).total).toBe(6);

    const before = await previewContext(scope, 'What did I repair on the Saab?');
    expect(before.numbered.some((i) => i.key === `episode:${target.id}`)).toBe(true);

    const response = await deleteEpisode(client.request(`/api/episodes/${target.id}`, { method: 'DELETE' }), params({ id: target.id }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ deleted: target.id, messagesMarked: 2 });
    expect(await getSql()`select actor, action from audit_log where object_type = 'episode' and object_id = ${target.id}`).toEqual([
      { actor: `user:${client.user.id}`, action: 'delete' },
    ]);

    const after = await previewContext(scope, 'What did I repair on the Saab?');
    // No episode, summary or window message holds it (a fact learned from it stays, deleted on its own).
    expect(JSON.stringify(after.numbered.filter((i) => i.kind !== 'fact'))).not.toContain('gearbox');
    expect(JSON.stringify(after.messages)).not.toContain('gearbox');
    const facts = after.numbered.filter((i) => i.kind === 'fact').map((i) => i.text);
    expect(contextText(after).split('gearbox').length - 1).toBe(facts.join('\n').split('gearbox').length - 1);
    const left = (await episodes(client)).episodes.map((e) => e.content);
    expect(left).toHaveLength(5);
    expect(left.join('\n')).not.toContain('gearbox');
    expect((await episodes(client, '?q=gearbox')).total).toBe(0);
    expect(
      (await deleteEpisode(client.request(`/api/episodes/${target.id}`, { method: 'DELETE' }), params({ id: target.id }))).status,
    ).toBe(404);
    // The exchange that was not deleted is still recalled.
    const kiwi = await previewContext(scope, 'What is my parrot called, Kiwi?');
    expect(
      kiwi.numbered.some((i) => i.kind === 'episode' && i.text.includes('Kiwi')) || JSON.stringify(kiwi.messages).includes('Kiwi'),
    ).toBe(true);
  });
});
