import { afterEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as deleteEpisode } from '@/app/api/episodes/[id]/route';
import { DELETE as deleteFact } from '@/app/api/facts/[id]/route';
import { POST as addFact } from '@/app/api/facts/route';
import { GET as why } from '@/app/api/messages/[id]/why/route';
import { GET as auditLog } from '@/app/api/staff/audit/route';
import { DELETE as staffDeleteFact } from '@/app/api/staff/facts/[id]/route';
import { GET as staffWhy } from '@/app/api/staff/messages/[id]/why/route';
import { getSql } from '@/db/client';
import type { WhyNotRecalled } from '@/lib/memory/context/why-not-recalled';
import { newClient, params, readChunks, setEnv } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

// Why a memory item was or was not in a reply's context, one case per answer, through the real
// routes: each case builds the situation that produces its answer.

afterEach(() =>
  setEnv({
    FACTS_TOP_K: undefined,
    CONTEXT_BUDGET: undefined,
    EPISODE_SCOPE: undefined,
    HISTORY_WINDOW: undefined,
    EPISODES_TOP_K: undefined,
  }),
);

type Recalled = { key: string; kind: string; kept: boolean };
/** A guest client or a signed-in member: what asking needs. */
type Asker = { request: (path: string, init?: { method?: string; body?: unknown }) => Request; user: { id: string } };

async function ask(client: Asker, conversationId: string, text: string) {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  const replyId = chunks.find((c) => c.type === 'start')!.messageId as string;
  await postTurnSettled(client.user.id);
  const [row] = await getSql()`select record from turn_records where assistant_message_id = ${replyId} order by attempt desc limit 1`;
  return { replyId, recalled: (row.record as { recalled: Recalled[] }).recalled };
}

async function whyOf(client: Asker, replyId: string, item: string): Promise<WhyNotRecalled> {
  const response = await why(client.request(`/api/messages/${replyId}/why?item=${encodeURIComponent(item)}`), params({ id: replyId }));
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

async function factIds(userId: string, pattern: string): Promise<string[]> {
  return (await getSql()`select id from facts where user_id = ${userId} and content ilike ${`%${pattern}%`} order by created_at`).map(
    (r) => r.id as string,
  );
}

describe('why a memory item was not in a reply', () => {
  it('sent, ranked below the top-k, then found now that the one above it is deleted (English and Chinese)', async () => {
    setEnv({ FACTS_TOP_K: '1', EPISODE_SCOPE: 'conversation' });
    const client = await newClient();
    await importTurns(client.user.id, [
      ['My dog is called Pepper.', 'Sweet.'],
      ['我住在成都。', '好的。'],
      ['I am allergic to peanuts.', 'Noted.'],
    ]);
    const [other] = await getSql()`insert into conversations (user_id, title) values (${client.user.id}, 'Later') returning id`;
    const { replyId, recalled } = await ask(client, other.id, 'What is my dog called?');
    const facts = recalled.filter((r) => r.kind === 'fact');
    expect(facts).toHaveLength(1);
    const sent = await whyOf(client, replyId, facts[0].key);
    expect(sent.verdict).toBe('sent');
    expect(sent.budget).toMatchObject({ kept: true });

    const missed = (await getSql()`select id from facts where user_id = ${client.user.id}`)
      .map((r) => `fact:${r.id}`)
      .filter((k) => k !== facts[0].key);
    expect(missed.length).toBe(2);
    for (const key of missed) {
      const answer = await whyOf(client, replyId, key);
      expect(answer.verdict).toBe('ranked_below');
      const [search] = answer.searches;
      expect(search).toMatchObject({ name: 'facts', topK: 1 });
      expect(search.standing.inScope).toBe(true);
      // Its rank in the fused list is below the one asked for, or it was not in either half's pool.
      if (search.standing.fusedRank !== null) expect(search.standing.fusedRank).toBeGreaterThan(1);
      expect(search.standing.vectorRank).toBeGreaterThan(1);
    }

    // The fact above them goes: searched again, the next one would be found now.
    await deleteFact(client.request(`/api/facts/${facts[0].key.slice(5)}`, { method: 'DELETE' }), params({ id: facts[0].key.slice(5) }));
    const verdicts = await Promise.all(missed.map(async (key) => (await whyOf(client, replyId, key)).verdict));
    expect(verdicts).toContain('changed_since');
    // The deleted one was sent all the same; the answer says what happened to it since.
    const deleted = await whyOf(client, replyId, facts[0].key);
    expect(deleted).toMatchObject({ verdict: 'sent', correction: { action: 'deleted', by: `user:${client.user.id}` } });
  });

  it('cut by the budget: recalled, but the facts block was full', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [
      ['I work as a structural engineer designing suspension bridges across fjords in western Norway.', 'Impressive.'],
      ['My sister Ingrid teaches baroque violin at the conservatory in Trondheim every autumn term.', 'Lovely.'],
      ['I am allergic to shellfish, and also to almonds, hazelnuts and most kinds of tree pollen.', 'Noted.'],
      ['我每个周末都去西湖边跑步，然后在龙井村喝一杯新鲜的绿茶。', '真好。'],
    ]);
    const [other] = await getSql()`insert into conversations (user_id, title) values (${client.user.id}, 'Questions') returning id`;
    setEnv({ CONTEXT_BUDGET: '420', FACTS_TOP_K: '10' });
    const { replyId, recalled } = await ask(client, other.id, 'Tell me about my work, my sister, my allergies and my weekends.');
    const cut = recalled.find((r) => r.kind === 'fact' && !r.kept);
    expect(cut, JSON.stringify(recalled)).toBeDefined();
    const answer = await whyOf(client, replyId, cut!.key);
    expect(answer.verdict).toBe('cut_by_budget');
    expect(answer.budget?.kept).toBe(false);
    expect(answer.budget?.reason).toBeTruthy();
  });

  it('learned later, corrected by staff with a reason, and a forgotten exchange', async () => {
    const staff = await member({ staff: true });
    const user = await member();
    const [{ id: userId }] = await getSql()`select id from users where email = ${user.email}`;
    const [{ id: staffId }] = await getSql()`select id from users where email = ${staff.email}`;
    const conversationId = await importTurns(userId, [
      ['My cat is called Biscuit.', 'Cute.'],
      ['I fixed the brakes on my bicycle yesterday.', 'Well done.'],
    ]);
    await postTurnSettled(userId);
    const client: Asker = { request: user.request, user: { id: userId } };
    // Corrected before the reply: staff delete the cat (with a reason), the user forgets an exchange.
    const [cat] = await factIds(userId, 'Biscuit');
    await staffDeleteFact(
      staff.request(`/api/staff/facts/${cat}`, { method: 'DELETE', body: { reason: 'asked by email to remove the pet' } }),
      params({ id: cat }),
    );
    const [episode] = await getSql()`select id from episodes where user_id = ${userId} and content ilike '%brakes%'`;
    await deleteEpisode(user.request(`/api/episodes/${episode.id}`, { method: 'DELETE' }), params({ id: episode.id }));
    const { replyId } = await ask(client, conversationId, 'What is my cat called, and what did I repair?');

    const byStaff = await whyOf(client, replyId, `fact:${cat}`);
    expect(byStaff).toMatchObject({
      verdict: 'corrected',
      correction: { action: 'deleted', by: `staff:${staffId}`, reason: 'asked by email to remove the pet' },
      item: { text: null },
    });
    expect(new Date(byStaff.correction!.at).getTime()).toBeLessThan(new Date(byStaff.reply.at).getTime());
    expect(await whyOf(client, replyId, `episode:${episode.id}`)).toMatchObject({
      verdict: 'corrected',
      correction: { action: 'forgotten', by: `user:${userId}` },
    });

    // Learned after the reply: a fact added by hand.
    const added = await addFact(user.request('/api/facts', { method: 'POST', body: { content: 'I collect old maps of Lisbon.' } }));
    const addedId = (await added.json()).fact.id as string;
    const later = await whyOf(client, replyId, `fact:${addedId}`);
    expect(later.verdict).toBe('learned_later');
    expect(new Date(later.item.learnedAt!).getTime()).toBeGreaterThan(new Date(later.reply.at).getTime());

    // Staff ask the same through their route, and the read is audited once.
    const asStaff = await staffWhy(staff.request(`/api/staff/messages/${replyId}/why?item=fact:${cat}`), params({ id: replyId }));
    expect(asStaff.status).toBe(200);
    expect((await asStaff.json()).verdict).toBe('corrected');
    const entries = (await (await auditLog(staff.request(`/api/staff/audit?targetUserId=${userId}&objectType=turn_why`))).json()).entries;
    expect(entries).toEqual([expect.objectContaining({ action: 'read', objectId: replyId, actorRole: 'staff' })]);
  });

  it('not similar enough: another conversation’s exchange that shares no word and little meaning', async () => {
    setEnv({ EPISODE_SCOPE: 'related' });
    const client = await newClient();
    await importTurns(client.user.id, [['我昨天修好了厨房的水龙头。', '做得好。']], 'Repairs');
    const conversationId = await importTurns(client.user.id, [['Hello there.', 'Hi!']], 'Music');
    await postTurnSettled(client.user.id);
    const { replyId } = await ask(client, conversationId, 'Which composers wrote the best cello concertos?');
    const [episode] =
      await getSql()`select id from episodes where user_id = ${client.user.id} and content like '%水龙头%' order by created_at limit 1`;
    const answer = await whyOf(client, replyId, `episode:${episode.id}`);
    expect(answer.verdict).toBe('not_similar_enough');
    const [search] = answer.searches;
    expect(search).toMatchObject({ name: 'other_conversations', passedBar: false });
    expect(search.standing.sharedTerms).toEqual([]);
    expect(search.standing.vectorScore!).toBeLessThan(search.otherMinSimilarity!);
  });

  it('in the recent window, not searched, and bad or foreign items', async () => {
    setEnv({ EPISODE_SCOPE: 'conversation' });
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['I planted tomatoes on the balcony.', 'Nice.'], ...fillerTurns(2)]);
    const otherConversation = await importTurns(client.user.id, [['Hi.', 'Hello.']], 'Other');
    await postTurnSettled(client.user.id);
    const { replyId } = await ask(client, conversationId, 'What did I plant?');
    // The exchange that said it, not this reply's own (whose answer may quote it).
    const [episode] =
      await getSql()`select id from episodes where user_id = ${client.user.id} and content like '%tomatoes%' order by created_at limit 1`;
    const windowed = await whyOf(client, replyId, `episode:${episode.id}`);
    expect(windowed.verdict, JSON.stringify(windowed)).toBe('in_window');
    const [own] = await getSql()`select id from episodes where assistant_message_id = ${replyId}`;
    expect(await whyOf(client, replyId, `episode:${own.id}`)).toMatchObject({
      verdict: 'not_searched',
      notSearched: expect.stringContaining('itself'),
    });
    const [elsewhere] = await getSql()`select id from episodes where conversation_id = ${otherConversation}`;
    expect(await whyOf(client, replyId, `episode:${elsewhere.id}`)).toMatchObject({
      verdict: 'not_searched',
      notSearched: expect.stringContaining('conversation'),
    });
    expect(await whyOf(client, replyId, `summary:${otherConversation}`)).toMatchObject({ verdict: 'not_searched' });

    for (const item of ['', 'fact:nope', 'message:00000000-0000-4000-8000-000000000000']) {
      const response = await why(client.request(`/api/messages/${replyId}/why?item=${item}`), params({ id: replyId }));
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('invalid_item');
    }
    const stranger = await newClient();
    const foreign = await why(stranger.request(`/api/messages/${replyId}/why?item=episode:${episode.id}`), params({ id: replyId }));
    expect(foreign.status).toBe(404);
    const [strangersOwn] = await getSql()`insert into conversations (user_id, title) values (${stranger.user.id}, 'x') returning id`;
    const mine = await ask(stranger, strangersOwn.id, 'Hello?');
    const notTheirs = await why(
      stranger.request(`/api/messages/${mine.replyId}/why?item=episode:${episode.id}`),
      params({ id: mine.replyId }),
    );
    expect(notTheirs.status).toBe(404);
  });
});
