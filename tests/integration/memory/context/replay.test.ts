import { afterEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as deleteFact } from '@/app/api/facts/[id]/route';
import { GET as listFacts } from '@/app/api/facts/route';
import { DELETE as forgetEverything } from '@/app/api/memory/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { GET as replayGet, POST as replayPost } from '@/app/api/messages/[id]/replay/route';
import type { ReplayResult } from '@/lib/memory/context/replay';
import { type Client, newClient, params, readChunks, setEnv } from '@/tests/support/app';
import { fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

// Replay through the real route handlers on the embedded Postgres and the offline model: a past
// turn's context assembled again (never generated), compared with the stored record.

afterEach(() => setEnv({ HISTORY_WINDOW: undefined, CONTEXT_BUDGET: undefined, SUMMARY_KEEP_RAW: undefined, EPISODE_SCOPE: undefined }));

async function ask(client: Client, conversationId: string, text: string): Promise<string> {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  const id = chunks.find((c) => c.type === 'start')!.messageId as string;
  await postTurnSettled(client.user.id);
  return id;
}

async function replay(
  client: Client,
  id: string,
  body?: unknown,
): Promise<{ status: number; json: ReplayResult & { error?: { code: string; message: string } } }> {
  const path = `/api/messages/${id}/replay`;
  const response =
    body === undefined
      ? await replayGet(client.request(path), params({ id }))
      : await replayPost(
          client.request(path, { method: 'POST', ...(typeof body === 'string' ? { rawBody: body } : { body }) }),
          params({ id }),
        );
  return { status: response.status, json: await response.json() };
}

async function replayOk(client: Client, id: string, body?: unknown): Promise<ReplayResult> {
  const { status, json } = await replay(client, id, body);
  expect(status, JSON.stringify(json)).toBe(200);
  return json;
}

async function recordOf(client: Client, id: string) {
  const response = await getContext(client.request(`/api/messages/${id}/context`), params({ id }));
  expect(response.status).toBe(200);
  return (await response.json()).context;
}

async function activeFactsOf(client: Client): Promise<Array<{ id: string; content: string }>> {
  return (await (await listFacts(client.request('/api/facts?status=active'))).json()).facts;
}

const keys = (items: Array<{ key: string }>) => items.map((item) => item.key);

describe('replay', () => {
  it('with unchanged memory, today gives the context that was sent: an empty diff', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, fillerTurns(2));
    const id = await ask(client, conversationId, 'How long should I boil it?');
    const result = await replayOk(client, id);
    expect(result.options).toMatchObject({ mode: 'today', overridden: [], nowFrom: 'record' });
    // The clock is the turn's, not the replay's.
    expect(result.options.now).toBe(result.turn.at);
    expect(result.turn).toMatchObject({ assistantMessageId: id, attempt: 1, conversationId });
    expect(result.diff).toMatchObject({ added: [], removed: [], reranked: [], changed: [] });
    expect(result.diff.tokensByBlock.after).toEqual(result.diff.tokensByBlock.before);
    expect(result.diff.retrievalQuery.after).toBe(result.diff.retrievalQuery.before);
    expect(result.diff.total.after).toBe(result.diff.total.before);
    // The window as it was at that turn: the imported messages before the question, not the reply after it.
    expect(result.replay.items.filter((i) => i.kind === 'history')).toHaveLength(4);
  });

  it('with unchanged memory, earlier replies that cited memory ([n]) make no difference either', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['I have a parrot named Pistachio.', 'What a bright name.']]);
    const citing = await ask(client, conversationId, 'What did I name my parrot?');
    expect((await recordOf(client, citing)).cited.length, 'the reply cites memory').toBeGreaterThan(0);
    const id = await ask(client, conversationId, 'What should I feed a parrot?');
    const result = await replayOk(client, id);
    expect(result.diff).toMatchObject({ added: [], removed: [], reranked: [], changed: [] });
    expect(result.diff.total.after).toBe(result.diff.total.before);
  });

  it('stored: the record as it was, and an empty diff', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['My cat is called Miso.', 'A lovely name.']]);
    const id = await ask(client, conversationId, 'What is my cat called?');
    const record = await recordOf(client, id);
    const result = await replayOk(client, id, { mode: 'stored' });
    expect(result.options.mode).toBe('stored');
    const { trace, ...replayed } = result.replay;
    expect(replayed).toEqual(result.stored);
    expect(trace).toEqual([]);
    expect(result.diff).toMatchObject({ added: [], removed: [], reranked: [], changed: [] });
    expect(result.diff.tokensByBlock.before).toEqual(record.budget.byBlock);
    expect(result.diff.tokensByBlock.after).toEqual(record.budget.byBlock);
    expect(result.diff.retrievalQuery).toEqual({ before: record.retrieval.query, after: record.retrieval.query });
    expect(result.stored.items.find((i) => i.kind === 'fact')?.text).toContain('Miso');
  });

  it('a fact learned after the turn is added, and a fact it outranks is re-ranked', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['My cat is called Miso.', 'A lovely name.']]);
    const id = await ask(client, conversationId, 'What is my cat called?');
    await ask(client, conversationId, 'I adopted a second cat, a tabby called Pixel.');
    const pixel = (await activeFactsOf(client)).find((f) => f.content.includes('Pixel'))!;
    const miso = (await activeFactsOf(client)).find((f) => f.content.includes('Miso'))!;

    const result = await replayOk(client, id);
    expect(result.diff.added).toContainEqual(
      expect.objectContaining({
        key: `fact:${pixel.id}`,
        kind: 'fact',
        block: 'facts',
        why: 'learned after this turn',
        text: expect.stringContaining('Pixel'),
      }),
    );
    expect(keys(result.diff.removed)).toEqual([]);
    // Miso's rank among the kept facts, before and after; a change is listed as a re-rank.
    const rankOf = (items: Array<{ key: string; rank: number }>) => items.find((i) => i.key === `fact:${miso.id}`)!.rank;
    const [before, after] = [rankOf(result.stored.items), rankOf(result.replay.items)];
    expect(before).toBe(1);
    if (after === before) expect(keys(result.diff.reranked)).not.toContain(`fact:${miso.id}`);
    else expect(result.diff.reranked).toContainEqual(expect.objectContaining({ key: `fact:${miso.id}`, before, after }));
    for (const entry of result.diff.reranked) expect(entry.before).not.toBe(entry.after);
    expect(result.diff.tokensByBlock.after.facts).toBeGreaterThan(result.diff.tokensByBlock.before.facts);
    expect(result.diff.total.after).toBe(result.replay.total);
    // The record itself is untouched: replay never writes a turn record.
    expect((await recordOf(client, id)).budget.byBlock).toEqual(result.diff.tokensByBlock.before);
  });

  it.each([
    {
      lang: 'en',
      said: 'I prefer coffee over tea, always black. My cat is called Miso.',
      fact: 'coffee',
      gone: ['coffee over tea', 'coffee'],
      probe: 'What do I drink?',
    },
    { lang: 'zh', said: '我更喜欢咖啡，不加糖。我的猫叫小米。', fact: '咖啡', gone: ['咖啡'], probe: '我喜欢喝什么？' },
  ])('a fact deleted since is removed, and its text appears nowhere in the replay ($lang)', async ({ said, fact, gone, probe }) => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [[said, 'Noted.']]);
    const id = await ask(client, conversationId, probe);
    const target = (await activeFactsOf(client)).find((f) => f.content.includes(fact))!;
    const before = await replayOk(client, id);
    expect(before.diff.removed).toEqual([]);

    const deleted = await deleteFact(client.request(`/api/facts/${target.id}`, { method: 'DELETE' }), params({ id: target.id }));
    expect(deleted.status).toBe(200);

    for (const body of [undefined, { mode: 'today' }, { mode: 'stored' }, { budget: 300 }, { episodeScope: 'user', window: 1 }]) {
      const result = await replayOk(client, id, body);
      const text = JSON.stringify(result);
      for (const words of gone) expect(text, `${JSON.stringify(body)} shows "${words}"`).not.toContain(words);
      if (result.options.mode === 'today' && !body) {
        expect(result.diff.removed).toContainEqual(
          expect.objectContaining({ key: `fact:${target.id}`, why: 'the fact was deleted', text: '[redacted]' }),
        );
        // The window message that stated it is sent with the part forgotten; it is the same message, changed.
        expect(result.replay.items.find((i) => i.kind === 'history' && i.role === 'user')?.text).toContain('[forgotten by the user]');
      }
    }
  });

  it('after "forget everything", every memory item sent then is removed and none of its text is shown', async () => {
    const client = await newClient();
    const said = 'My sister is called Ingrid and she lives in Tromsø.';
    const conversationId = await importTurns(client.user.id, [[said, 'Noted.'], ...fillerTurns(3)]);
    const id = await ask(client, conversationId, 'Where does my sister live?');
    const before = await replayOk(client, id);
    const memoryBefore = before.stored.items.filter((i) => i.kind !== 'history');
    expect(memoryBefore.length).toBeGreaterThan(0);
    expect((await forgetEverything(client.request('/api/memory', { method: 'DELETE' }))).status).toBe(200);

    const result = await replayOk(client, id);
    expect(result.replay.items.filter((i) => i.kind !== 'history')).toEqual([]);
    expect(keys(result.diff.removed.filter((i) => i.kind !== 'history')).sort()).toEqual(keys(memoryBefore).sort());
    for (const item of result.diff.removed.filter((i) => i.kind !== 'history')) expect(item.text).toBe('[redacted]');
    expect(JSON.stringify(result.diff.removed.filter((i) => i.kind !== 'history'))).not.toContain('Tromsø');
    // Today's window holds nothing from before the floor: the messages sent then are removed (the
    // messages themselves stay in the chat, so the record keeps them as sent).
    expect(result.replay.items.filter((i) => i.kind === 'history')).toEqual([]);
    expect(result.diff.removed.filter((i) => i.kind === 'history').length).toBeGreaterThan(0);
  });

  it('a smaller budget sends fewer window tokens; a smaller window fewer messages', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, fillerTurns(8));
    const id = await ask(client, conversationId, 'Which of these was the hardest?');
    const stored = await recordOf(client, id);

    const small = await replayOk(client, id, { budget: 250 });
    expect(small.options).toMatchObject({ mode: 'today', budget: 250, overridden: ['budget'] });
    expect(small.replay.budget).toBe(250);
    expect(small.diff.tokensByBlock.before.history).toBe(stored.budget.byBlock.history);
    expect(small.diff.tokensByBlock.after.history).toBeLessThan(small.diff.tokensByBlock.before.history);
    expect(small.diff.total.after).toBeLessThanOrEqual(250);
    expect(small.diff.removed.length).toBeGreaterThan(0);
    for (const item of small.diff.removed) {
      expect(item.kind).toBe('history');
      expect(item.why).toMatch(/^left out now: /);
    }
    // The newest messages are the ones kept.
    const keptNow = small.replay.items.filter((i) => i.kind === 'history');
    expect(keys(keptNow)).toEqual(keys(small.stored.items.filter((i) => i.kind === 'history')).slice(-keptNow.length));

    const narrow = await replayOk(client, id, { window: 2 });
    expect(narrow.options.window).toBe(2);
    expect(narrow.replay.items.filter((i) => i.kind === 'history')).toHaveLength(2);
    expect(narrow.diff.removed.filter((i) => i.kind === 'history')).toHaveLength(14);
    expect(narrow.diff.removed.every((i) => i.kind !== 'history' || i.why === 'not in the recent window now')).toBe(true);
    // Earlier turns out of the window can come back as episodes.
    expect(narrow.diff.added.every((i) => i.kind === 'episode')).toBe(true);

    // A budget too small for the question and system prompt alone is refused, saying so.
    const tiny = await replay(client, id, { budget: 20 });
    expect(tiny.status).toBe(400);
    expect(tiny.json.error).toMatchObject({ code: 'budget_too_small', message: expect.stringMatching(/^budget: /) });
  });

  it('episode scope "user" recalls an exchange from another conversation that the turn, asked with scope "conversation", did not', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [['How do I wax a surfboard for cold water?', 'Use a cold water wax and a base coat.']], 'surf');
    const conversationId = await importTurns(client.user.id, [['Hello there.', 'Hi!']], 'other');
    setEnv({ EPISODE_SCOPE: 'conversation' });
    const id = await ask(client, conversationId, 'How do I wax a surfboard?');
    setEnv({ EPISODE_SCOPE: undefined });
    const stored = await recordOf(client, id);
    expect(stored.recalled.filter((r: { kind: string }) => r.kind === 'episode')).toEqual([]);

    const result = await replayOk(client, id, { episodeScope: 'user', episodesTopK: 3 });
    expect(result.options).toMatchObject({ episodeScope: 'user', episodesTopK: 3, overridden: ['episodesTopK', 'episodeScope'] });
    const episode = result.diff.added.find((i) => i.kind === 'episode');
    expect(episode).toMatchObject({ block: 'episodes', why: 'not recalled then', text: expect.stringContaining('cold water wax') });
    expect(result.diff.tokensByBlock.after.episodes).toBeGreaterThan(0);
    expect(result.diff.tokensByBlock.before.episodes).toBe(0);
  });

  it('another user gets 404, and so does a message without a record', async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const conversationId = await importTurns(owner.user.id, [['Hi', 'Hello']]);
    const id = await ask(owner, conversationId, 'How are you?');
    for (const body of [undefined, {}, { mode: 'stored' }]) {
      const { status, json } = await replay(stranger, id, body);
      expect(status).toBe(404);
      expect(json.error!.code).toBe('not_found');
      expect(JSON.stringify(json)).not.toContain('How are you');
    }
    expect((await replay(owner, 'not-a-uuid')).status).toBe(404);
    expect((await replay(owner, crypto.randomUUID())).json.error!.code).toBe('not_found');
    const record = await recordOf(owner, id);
    expect((await replay(owner, record.question.id)).json.error!.code).toBe('not_a_reply');
  });

  it('a bad body is a 400 that names the field', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['Hi', 'Hello']]);
    const id = await ask(client, conversationId, 'How are you?');
    const cases: Array<[unknown, string, RegExp]> = [
      [{ mode: 'today', topK: 3, extra: true }, 'invalid', /unknown fields "topK", "extra"/],
      [{ budgets: 100 }, 'invalid', /unknown field "budgets"/],
      [{ mode: 'later' }, 'invalid', /^mode: /],
      // The offline model's context window is 8192 tokens, 1024 of them kept for the reply.
      [{ budget: -5 }, 'out_of_range', /^budget: must be from 1 to 7168 tokens: memlens-offline's context window of 8192 less 1024/],
      [{ budget: 2_000_000, window: 1000 }, 'out_of_range', /^budget: must be from 1 to 7168 tokens/],
      [{ budget: 7169 }, 'out_of_range', /^budget: must be from 1 to 7168 tokens/],
      [{ window: 1000 }, 'out_of_range', /^window: must be from 0 to 100 messages/],
      [{ budget: '500' }, 'invalid', /^budget: must be a number/],
      [{ window: 1.5 }, 'invalid', /^window: must be a whole number/],
      [{ factsTopK: 1000 }, 'out_of_range', /^factsTopK: must be from 0 to 200/],
      [{ episodeScope: 'everyone' }, 'invalid', /^episodeScope: /],
      [{ mode: 'stored', budget: 500 }, 'not_with_stored', /^budget: applies only to a replay with today's memory/],
      [[], 'invalid', /^body: /],
      ['{not json', 'invalid_json', /not valid JSON/],
    ];
    for (const [body, code, message] of cases) {
      const { status, json } = await replay(client, id, body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(json.error, JSON.stringify(body)).toMatchObject({ code, message: expect.stringMatching(message) });
    }
    // An empty body is the default replay; the largest budget and window are taken.
    expect((await replay(client, id, '')).status).toBe(200);
    expect((await replay(client, id, { budget: 7168, window: 100 })).status).toBe(200);
  });
});
