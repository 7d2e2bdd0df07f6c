import { encodeChat } from 'gpt-tokenizer/model/gpt-4o';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as deleteConversation } from '@/app/api/conversations/[id]/route';
import { DELETE as clearSummary, PUT as editSummary, GET as getSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { DELETE as deleteFact, GET as getFact } from '@/app/api/facts/[id]/route';
import { GET as listFacts } from '@/app/api/facts/route';
import { GET as me } from '@/app/api/me/route';
import { DELETE as deleteMemory } from '@/app/api/memory/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { getSql } from '@/db/client';
import { createGuestUser } from '@/db/users';
import { contextText, previewContext } from '@/lib/memory/context/preview';
import { countChatTokens, countTokens } from '@/lib/memory/context/tokens';
import { memoryLine } from '@/lib/memory/memory-line';
import { newClient, params, readChunks, setEnv, storedMessages } from '@/tests/support/app';
import { activeFacts, fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

const newConversation = async (client: Awaited<ReturnType<typeof newClient>>) =>
  (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id as string;

describe('facts across conversations', () => {
  it('a move supersedes where the user lives: kept with its end, never recalled, never duplicated', async () => {
    const user = await createGuestUser();
    await importTurns(user.id, [
      ['I live in Berlin.', 'Noted.'],
      ['I live in Berlin, as I said.', 'Yes.'],
    ]);
    await importTurns(user.id, [['I moved to Lisbon last month.', 'Congratulations!']]);
    expect(await activeFacts(user.id)).toEqual([expect.stringContaining('Lisbon')]);
    const old =
      await getSql()`select status, valid_to, embedding, superseded_by from facts where user_id = ${user.id} and content ilike '%Berlin%'`;
    expect(old).toHaveLength(1); // said twice, stored once
    expect(old[0].status).toBe('superseded');
    expect(old[0].valid_to).not.toBeNull();
    expect(old[0].embedding).toBeNull();
    expect(old[0].superseded_by).not.toBeNull();

    const conversationId = await importTurns(user.id, [['Hi', 'Hello']]);
    const state = await previewContext({ userId: user.id, conversationId }, 'Where do I live?');
    const facts = state.numbered.filter((i) => i.kind === 'fact').map((i) => i.text);
    expect(facts.join()).toContain('Lisbon');
    expect(facts.join()).not.toContain('Berlin');
  });

  it('deleting a fact removes it and its embedding at once: recall never returns it', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [["I'm allergic to peanuts.", 'I will remember that.']]);
    const facts = (await (await listFacts(client.request('/api/facts?status=active'))).json()).facts;
    expect(facts).toHaveLength(1);
    const detail = await (await getFact(client.request(`/api/facts/${facts[0].id}`), params({ id: facts[0].id }))).json();
    expect(detail.history.map((e: { event: string }) => e.event)).toEqual(['ADD']);
    expect(detail.history[0].actor).toBe('offline-rules');

    const deleted = await deleteFact(client.request(`/api/facts/${facts[0].id}`, { method: 'DELETE' }), params({ id: facts[0].id }));
    expect(deleted.status).toBe(200);
    expect(await getSql()`select 1 from facts where id = ${facts[0].id}`).toHaveLength(0);
    const conversationId = await importTurns(client.user.id, [['Hi', 'Hello']]);
    const state = await previewContext({ userId: client.user.id, conversationId }, 'What am I allergic to? peanuts?');
    expect(state.candidates.filter((c) => c.kind === 'fact')).toEqual([]);
  });

  it('deleting a conversation deletes what was learned in it, and nothing outside it', async () => {
    const client = await newClient();
    const other = await createGuestUser();
    const doomed = await importTurns(client.user.id, [['My sister Anna lives in Rome.', 'Nice.']], 'doomed');
    await importTurns(client.user.id, [['I have a cat named Luna.', 'Cute.']], 'kept');
    await importTurns(other.id, [['My sister Anna is a doctor.', 'Great.']], 'stranger');

    const response = await deleteConversation(client.request(`/api/conversations/${doomed}`, { method: 'DELETE' }), params({ id: doomed }));
    expect(response.status).toBe(200);
    expect(await getSql()`select 1 from episodes where conversation_id = ${doomed}`).toHaveLength(0);
    expect(await getSql()`select 1 from facts where conversation_id = ${doomed}`).toHaveLength(0);
    expect((await activeFacts(client.user.id)).join()).toContain('Luna');
    expect((await activeFacts(client.user.id)).join()).not.toContain('Anna');
    expect((await activeFacts(other.id)).join()).toContain('Anna');
  });

  it("forgetting everything of one user touches no one else's memory", async () => {
    const client = await newClient();
    const other = await createGuestUser();
    await importTurns(client.user.id, [['My name is Ada.', 'Hi Ada.']]);
    await importTurns(other.id, [['My name is Grace.', 'Hi Grace.']]);
    const response = await deleteMemory(client.request('/api/memory', { method: 'DELETE' }));
    expect((await response.json()).deleted.facts).toBeGreaterThan(0);
    expect(await activeFacts(client.user.id)).toEqual([]);
    expect(await getSql()`select 1 from episodes where user_id = ${client.user.id}`).toHaveLength(0);
    expect(await activeFacts(other.id)).toEqual([expect.stringContaining('Grace')]);
    expect((await getSql()`select count(*)::int as n from episodes where user_id = ${other.id}`)[0].n).toBe(1);
  });

  it.each([
    ['en', 'I live at 12 Baker Street in London.', 'Please forget my address.'],
    ['zh', '我住在上海。', '请忘记我的地址'],
  ])('an explicit request to forget deletes the matching facts (%s)', async (_, statement, request) => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text: statement } } })));
    await postTurnSettled(client.user.id);
    expect(await activeFacts(client.user.id)).toHaveLength(1);
    await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text: request } } })));
    await postTurnSettled(client.user.id);
    expect(await activeFacts(client.user.id)).toEqual([]);
    expect(await getSql()`select 1 from facts where user_id = ${client.user.id}`).toHaveLength(0);
  });
});

it('a deleted fact is redacted inside the recorded contexts and citations that quoted it; the records stay', async () => {
  const client = await newClient();
  await importTurns(client.user.id, [['My favourite band is Radiohead.', 'Great band.']]);
  const conversationId = await newConversation(client);
  const chunks = await readChunks(
    await chat(client.request('/api/chat', { body: { conversationId, message: { text: 'Which band is my favourite?' } } })),
  );
  const assistantId = chunks.find((c) => c.type === 'start')!.messageId;
  await postTurnSettled(client.user.id);
  const before = await (await getContext(client.request(`/api/messages/${assistantId}/context`), params({ id: assistantId }))).json();
  expect(JSON.stringify(before)).toContain('Radiohead');

  const [fact] = (await (await listFacts(client.request('/api/facts?status=active'))).json()).facts;
  await deleteFact(client.request(`/api/facts/${fact.id}`, { method: 'DELETE' }), params({ id: fact.id }));
  const after = await getContext(client.request(`/api/messages/${assistantId}/context`), params({ id: assistantId }));
  expect(after.status).toBe(200);
  const body = await after.json();
  expect(JSON.stringify(body)).not.toContain('Radiohead');
  const item = body.context.recalled.find((r: { key: string }) => r.key === `fact:${fact.id}`);
  expect(item).toMatchObject({ text: '[redacted]', kept: true, redacted: { by: `user:${client.user.id}`, reason: 'fact deleted' } });
  expect(item.tokens).toBe(before.context.recalled.find((r: { key: string }) => r.key === `fact:${fact.id}`).tokens);
  expect(body.context.budget.total).toBe(before.context.budget.total);
  expect(body.citations[0].citedKeys).toEqual(before.citations[0].citedKeys);
});

describe('recall options (off by default)', () => {
  it('FACTS_EXCLUDE_CURRENT_CONVERSATION leaves out facts learned in this conversation', async () => {
    const user = await createGuestUser();
    const here = await importTurns(user.id, [['My name is Ada.', 'Hi Ada.']]);
    await importTurns(user.id, [['I live in Oslo.', 'Nice city.']]);
    const factsFor = async () =>
      (await previewContext({ userId: user.id, conversationId: here }, 'Tell me about me.')).numbered
        .filter((i) => i.kind === 'fact')
        .map((i) => i.text)
        .join();
    expect(await factsFor()).toMatch(/Ada.*Oslo|Oslo.*Ada/u);
    setEnv({ FACTS_EXCLUDE_CURRENT_CONVERSATION: 'true' });
    try {
      const facts = await factsFor();
      expect(facts).toContain('Oslo');
      expect(facts).not.toContain('Ada');
    } finally {
      setEnv({ FACTS_EXCLUDE_CURRENT_CONVERSATION: undefined });
    }
  });

  it('FACTS_SKIP_WHEN_HISTORY_FITS skips fact recall while the window holds the whole conversation', async () => {
    const user = await createGuestUser();
    const conversationId = await importTurns(user.id, [['My name is Ada.', 'Hi Ada.']]);
    setEnv({ FACTS_SKIP_WHEN_HISTORY_FITS: 'true' });
    try {
      const state = await previewContext({ userId: user.id, conversationId }, 'What is my name?');
      expect(state.candidates.filter((c) => c.kind === 'fact')).toEqual([]);
      expect(state.runs.find((r) => r.kind === 'facts')?.skipped).toContain('whole conversation');
      expect(contextText(state)).toContain('My name is Ada.'); // still there, from the window
    } finally {
      setEnv({ FACTS_SKIP_WHEN_HISTORY_FITS: undefined });
    }
  });

  it("EPISODE_SCOPE=user recalls turns from the user's other conversations", async () => {
    const user = await createGuestUser();
    await importTurns(user.id, [['I repaired the carburettor of my Vespa.', 'Well done.']]);
    const conversationId = await importTurns(user.id, [['Hello', 'Hi']]);
    const episodes = async () =>
      (await previewContext({ userId: user.id, conversationId }, 'What did I repair on the Vespa?')).candidates
        .filter((c) => c.kind === 'episode')
        .map((c) => c.text)
        .join();
    setEnv({ EPISODE_SCOPE: 'conversation' });
    expect(await episodes()).not.toContain('carburettor');
    setEnv({ EPISODE_SCOPE: 'user' });
    try {
      expect(await episodes()).toContain('carburettor');
    } finally {
      setEnv({ EPISODE_SCOPE: undefined });
    }
  });
});

describe('rolling summary', () => {
  // These use a short raw tail (the default, the recent window, is covered in tests/integration/memory/corrections/corrections.test.ts).
  beforeAll(() => setEnv({ SUMMARY_KEEP_RAW: '6' }));
  afterAll(() => setEnv({ SUMMARY_KEEP_RAW: undefined }));

  it('keeps the last 6 raw and writes a version once 5 more messages lie beyond them (the first at 10 or more), with a version history', async () => {
    const user = await createGuestUser();
    const scope = (conversationId: string) => ({ userId: user.id, conversationId });
    const four = await importTurns(user.id, [['My name is Ada Lovelace.', 'Hello Ada.'], ...fillerTurns(3)]);
    expect(await getSql()`select 1 from summaries where conversation_id = ${four}`).toHaveLength(0); // 8 messages

    const five = await importTurns(user.id, [['My name is Ada Lovelace.', 'Hello Ada.'], ...fillerTurns(4)]);
    expect(await getSql()`select 1 from summaries where conversation_id = ${five}`).toHaveLength(0); // 4 beyond the last 6
    const six = await importTurns(user.id, [['My name is Ada Lovelace.', 'Hello Ada.'], ...fillerTurns(5)]);
    const [first] = await getSql()`select * from summaries where conversation_id = ${six}`;
    expect(first.covered_message_count).toBe(6);
    expect(first.content).toContain('Ada Lovelace');

    const long = await importTurns(user.id, [['My name is Ada Lovelace.', 'Hello Ada.'], ...fillerTurns(12)]); // 26 messages
    const versions =
      await getSql()`select version, covered_message_count, action from summary_versions where conversation_id = ${long} order by version`;
    // Each version covers 5+ more than the last, checked after each reply: at 12 (6), 18 (12), 24 (18); never the last 6.
    expect(versions.map((v) => v.covered_message_count)).toEqual([6, 12, 18]);
    expect(versions.every((v) => v.action === 'refresh')).toBe(true);
    const state = await previewContext(scope(long), 'What is my name?');
    // The summary holds the name; as sent it may leave the line out when a fact or an exchange sent says it.
    expect(state.candidates.find((i) => i.kind === 'summary')?.text).toContain('Ada Lovelace');
    expect(state.system).toContain('Ada Lovelace');
  });

  it('an edited summary is the base of the next refresh; clear starts over; both are recorded', async () => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    const say = async (text: string) => {
      await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
      await postTurnSettled(client.user.id);
    };
    for (let i = 0; i < 6; i++) await say(`Fact number ${i}: my locker code is ${1000 + i}.`);
    const summaryUrl = `/api/conversations/${conversationId}/summary`;
    const before = (await (await getSummary(client.request(summaryUrl), params({ id: conversationId }))).json()).summary;
    expect(before.version).toBe(1);

    const edited = await editSummary(
      client.request(summaryUrl, { method: 'PUT', body: { content: '- Staff note: the user prefers metric units.', version: 1 } }),
      params({ id: conversationId }),
    );
    expect(edited.status).toBe(200);
    const stale = await editSummary(
      client.request(summaryUrl, { method: 'PUT', body: { content: 'x', version: 1 } }),
      params({ id: conversationId }),
    );
    expect(stale.status).toBe(409);

    for (let i = 6; i < 9; i++) await say(`Fact number ${i}: my locker code is ${1000 + i}.`);
    const after = await (await getSummary(client.request(summaryUrl), params({ id: conversationId }))).json();
    expect(after.summary.version).toBe(3);
    expect(after.summary.content).toContain('Staff note: the user prefers metric units.');
    expect(after.versions.map((v: { action: string }) => v.action)).toEqual(['refresh', 'edit', 'refresh']);
    const edit = after.versions.find((v: { action: string }) => v.action === 'edit');
    expect(edit.actor).toBe(`user:${client.user.id}`);
    expect(edit.before).toBe(before.content);

    const cleared = await clearSummary(client.request(summaryUrl, { method: 'DELETE' }), params({ id: conversationId }));
    expect((await cleared.json()).summary).toMatchObject({ content: '', coveredMessageCount: 0, version: 4 });
    // Later refreshes start after the clear point: the cleared lines never come back.
    for (let i = 9; i < 17; i++) await say(`Fact number ${i}: my locker code is ${1000 + i}.`);
    const refreshed = (await (await getSummary(client.request(summaryUrl), params({ id: conversationId }))).json()).summary;
    expect(refreshed.version).toBeGreaterThan(4);
    expect(refreshed.content).toContain('1009');
    // (Replies after the clear may quote older facts; what was said before it is never summarised again.)
    expect(refreshed.content).not.toMatch(/^- User: Fact number [0-8]:/mu);
    const summarised = await getSql()`select m.content from memory_sources s join summary_versions v on v.id = s.summary_version_id
      join messages m on m.id = s.message_id where v.conversation_id = ${conversationId} and v.version = ${refreshed.version}`;
    expect(summarised.length).toBeGreaterThan(0);
    for (const row of summarised) expect(row.content).not.toMatch(/^Fact number [0-8]:/u);
    expect(refreshed.content).not.toContain('Staff note');
  });
});

describe('episodes', () => {
  it('recalls a turn from far back by meaning, and never one whose messages are all sent raw (by id)', async () => {
    const user = await createGuestUser();
    const conversationId = await importTurns(user.id, [
      ['I rewatched Gattaca yesterday; Ethan Hawke was great.', 'A classic about genetic destiny.'],
      ...fillerTurns(14),
      ['Gattaca came up again: it still holds up.', 'It does.'],
    ]);
    setEnv({ HISTORY_WINDOW: '4' });
    try {
      const state = await previewContext({ userId: user.id, conversationId }, 'Which actor did I praise in Gattaca?');
      const episodes = state.numbered.filter((c) => c.kind === 'episode');
      expect(episodes[0].text).toContain('Ethan Hawke');
      const sentRaw = new Set(state.keptHistory.flatMap((m) => m.sourceMessageIds));
      for (const episode of state.numbered.filter((i) => i.kind === 'episode'))
        expect(episode.sourceMessageIds.every((id) => sentRaw.has(id))).toBe(false);
      expect(state.keptHistory.some((m) => m.text.includes('still holds up'))).toBe(true);
      expect(state.numbered.some((e) => e.text.includes('still holds up'))).toBe(false);
      const dropped = state.budget!.decisions.find((d) => d.reason.includes('sent in the recent window'));
      expect(dropped).toBeDefined();
    } finally {
      setEnv({ HISTORY_WINDOW: undefined });
    }
  });
});

describe('token budget', () => {
  it.each([
    [
      'en',
      [
        ['My name is Ada and I live in Berlin.', 'Hello Ada!'],
        ["I'm vegetarian.", 'Noted.'],
      ],
      'Suggest a dinner for me tonight.',
    ],
    [
      'zh',
      [
        ['我叫张三，我住在北京。', '你好张三！'],
        ['我对花生过敏。', '好的，记住了。'],
      ],
      '我晚饭吃什么好？',
    ],
  ])('the recorded tokens add up exactly to the tokens of the messages sent (%s)', async (_, memorable, question) => {
    const user = await createGuestUser();
    const conversationId = await importTurns(user.id, [...(memorable as Array<[string, string]>), ...fillerTurns(14)]);
    // Every kind of item in the context, relevant or not: this test is about the accounting.
    setEnv({ HISTORY_WINDOW: '6', EPISODES_MIN_SIMILARITY: '-1' });
    try {
      const state = await previewContext({ userId: user.id, conversationId }, question);
      const sent = [
        { role: 'system' as const, content: state.system },
        ...state.messages.map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content as string })),
      ];
      const kept = state.budget!.decisions.filter((d) => d.kept).reduce((sum, d) => sum + d.tokens, 0);
      expect(kept).toBe(state.budget!.total);
      expect(kept).toBe(countChatTokens(sent, 'o200k_base'));
      expect(kept).toBe(encodeChat(sent).length); // gpt-tokenizer's own chat encoding for gpt-4o
      expect(new Set(state.numbered.map((i) => i.kind))).toEqual(new Set(['fact', 'summary', 'episode']));
      for (const item of state.numbered) expect(state.system).toContain(memoryLine(item.n, item.text));
    } finally {
      setEnv({ HISTORY_WINDOW: undefined, EPISODES_MIN_SIMILARITY: undefined });
    }
  });

  it('trims to a small budget, recording why each item was dropped', async () => {
    const user = await createGuestUser();
    const conversationId = await importTurns(user.id, [['My name is Ada.', 'Hi.'], ...fillerTurns(20)]);
    setEnv({ CONTEXT_BUDGET: '300' });
    try {
      const state = await previewContext({ userId: user.id, conversationId }, 'What is my name?');
      expect(state.budget!.total).toBeLessThanOrEqual(300);
      const dropped = state.budget!.decisions.filter((d) => !d.kept);
      expect(dropped.length).toBeGreaterThan(0);
      for (const d of dropped) expect(d.reason).toMatch(/cap|budget|older than a dropped message|sent in the recent window/);
      expect(contextText(state)).toContain('What is my name?');
    } finally {
      setEnv({ CONTEXT_BUDGET: undefined });
    }
  });

  it("the limit /api/me gives the composer is the server's, to the token", async () => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    setEnv({ CONTEXT_BUDGET: '400' });
    try {
      const { model } = await (await me(client.request('/api/me'))).json();
      expect(model.encoding).toBe('o200k_base');
      // One word again and again: one token each (a tokenizer never merges across words).
      const message = (tokens: number) => `the${' the'.repeat(tokens - 1)}`;
      expect(countTokens(message(model.maxMessageTokens), model.encoding)).toBe(model.maxMessageTokens);
      const over = await chat(
        client.request('/api/chat', { body: { conversationId, message: { text: message(model.maxMessageTokens + 1) } } }),
      );
      expect(over.status).toBe(400);
      expect((await over.json()).error.code).toBe('exceeds_context_budget');
      const fits = await chat(
        client.request('/api/chat', { body: { conversationId, message: { text: message(model.maxMessageTokens) } } }),
      );
      expect(fits.status).toBe(200);
      await readChunks(fits);
    } finally {
      setEnv({ CONTEXT_BUDGET: undefined });
    }
  });

  it('a message that alone exceeds the budget gets a 400 and nothing is stored', async () => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    setEnv({ CONTEXT_BUDGET: '200' });
    try {
      const response = await chat(client.request('/api/chat', { body: { conversationId, message: { text: 'word '.repeat(400) } } }));
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('exceeds_context_budget');
      expect(await storedMessages(conversationId)).toEqual([]);
    } finally {
      setEnv({ CONTEXT_BUDGET: undefined });
    }
  });
});

describe('the turn record', () => {
  it('is streamed at the start, stored under the assistant id, and served only to its owner', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [['My favourite film is Alien.', 'A classic.']]);
    const conversationId = await newConversation(client);
    const chunks = await readChunks(
      await chat(client.request('/api/chat', { body: { conversationId, message: { text: 'What is my favourite film?' } } })),
    );
    const start = chunks.findIndex((c) => c.type === 'start');
    const firstTurn = chunks.findIndex((c) => c.type === 'data-turn');
    const firstText = chunks.findIndex((c) => c.type === 'text-delta');
    expect(firstTurn).toBe(start + 1);
    expect(firstTurn).toBeLessThan(firstText);
    const assistantId = chunks[start].messageId;
    expect(chunks[firstTurn].data.assistantMessageId).toBe(assistantId);

    const response = await getContext(client.request(`/api/messages/${assistantId}/context`), params({ id: assistantId }));
    const { context, citations } = await response.json();
    expect(context.question.text).toBe('What is my favourite film?');
    expect(context.status).toBe('complete');
    expect(
      context.recalled.some((r: { kind: string; text: string; kept: boolean }) => r.kind === 'fact' && r.text.includes('Alien') && r.kept),
    ).toBe(true);
    expect(context.messages[0].role).toBe('system');
    expect(context.trace.map((t: { step: string }) => t.step)).toEqual([
      'load_history',
      'rewrite_for_retrieval',
      'embed_query',
      'recall_facts',
      'recall_episodes',
      'recall_summary',
      'add_neighbours',
      'fit_to_budget',
      'assemble_messages',
      'generate',
    ]);
    // The offline model quotes the numbered line it used, so its reply cites it.
    const [reply] = (await storedMessages(conversationId)).filter((m) => m.role === 'assistant');
    expect(reply.content).toContain('Alien');
    // The fact, or the turn of the other conversation it came from (EPISODE_SCOPE=related recalls both).
    expect(citations[0].citedKeys).toEqual([expect.stringMatching(/^(fact|episode):/)]);
    expect(citations[0].retrievalRuns.map((r: { kind: string }) => r.kind)).toEqual(['facts', 'episodes', 'summary']);

    const stranger = await newClient();
    expect((await getContext(stranger.request(`/api/messages/${assistantId}/context`), params({ id: assistantId }))).status).toBe(404);
  });
});
