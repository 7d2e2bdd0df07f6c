import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as clearSummary, PUT as editSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { DELETE as forgetEpisode } from '@/app/api/episodes/[id]/route';
import { DELETE as deleteFact, PATCH as editFact } from '@/app/api/facts/[id]/route';
import { GET as listFacts } from '@/app/api/facts/route';
import { DELETE as forgetAll } from '@/app/api/memory/route';
import { DELETE as removeMessage } from '@/app/api/messages/[id]/route';
import { getSql } from '@/db/client';
import { contextText, previewContext } from '@/lib/memory/context/preview';
import type { TurnState } from '@/lib/memory/context/state';
import { countChatTokens } from '@/lib/memory/context/tokens';
import { FORGOTTEN } from '@/lib/memory/redaction';
import { type Client, newClient, params, readChunks, setEnv } from '@/tests/support/app';
import { postTurnSettled } from '@/tests/support/memory';
import { serveOpenAIStub } from '@/tests/support/openai-stub';
import { repeatingModel } from '@/tests/support/repeating-model';

/**
 * The memory invariants under random sequences of everything a user can do: chat (statements, and
 * questions whose replies quote memory), edit and remove messages, edit and delete facts, edit and clear summaries, forget everything, retry. After each
 * step a probe's context is assembled for the user who acted, and:
 * - no corrected-away text is in it (a deleted fact's words anywhere; an edited fact's old words or
 *   an edited-away message's words in memory and in the recent window; nothing from before a clear
 *   point in the summary, nothing from before "forget everything" in any memory block or in the
 *   window; a forgotten exchange's messages sent only as forgotten);
 * - no other user's text is in it;
 * - every turn record is still there, and none holds a deleted fact's words;
 * - the recorded tokens add up to the tokens of the messages sent.
 *
 * The window is checked as the model is sent it (every message but the probe question).
 *
 * Seeded; a failure prints the seed and the steps so far. A small run is part of `npm test`;
 * a larger one: INVARIANT_STEPS=1000 INVARIANT_SEED=7 npx vitest run tests/integration/memory/invariants.test.ts
 */
const SEED = Number(process.env.INVARIANT_SEED ?? 20261122);
const STEPS = Number(process.env.INVARIANT_STEPS ?? 60);
/** Steps of the run through the OpenAI-compatible stub (INVARIANT_OPENAI_STEPS). */
const OPENAI_STEPS = Number(process.env.INVARIANT_OPENAI_STEPS ?? 60);

function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: T[]): T => items[Math.floor(next() * items.length)] };
}

type Rng = ReturnType<typeof random>;

/**
 * Statement templates that the offline rules turn into a fact whose text is the statement itself,
 * each with a question that asks for it without naming it (the reply quotes what memory holds).
 */
const STATEMENTS: Array<{ say: (t: string) => string; ask: string }> = [
  { say: (t) => `I live in ${t}.`, ask: 'Which town is my home?' },
  { say: (t) => `My brother is called ${t}.`, ask: "What is my brother's name?" },
  { say: (t) => `I have a dog named ${t}.`, ask: 'What did I name my dog?' },
  { say: (t) => `My favourite band is ${t}.`, ask: 'Which band do I like most?' },
  { say: (t) => `I work at ${t}.`, ask: 'Where is my job?' },
  { say: (t) => `我住在${t}。`, ask: '我家在哪个城市？' },
  { say: (t) => `我的狗叫${t}。`, ask: '我的狗叫什么名字？' },
  { say: (t) => `我最喜欢的乐队是${t}。`, ask: '我最爱听哪个乐队？' },
];
const FILLERS = [
  'How do I fold a paper crane?',
  'What is a good stretch for the back?',
  '怎么煮米饭比较好？',
  'Any tip for a rainy Sunday?',
];
const SYLLABLES = ['vo', 'ren', 'ka', 'tel', 'mun', 'qui', 'bo', 'sar', 'net', 'dra', 'lin', 'zu', 'pex', 'mor', 'quil', 'tav'];

type User = {
  name: string;
  client: Client;
  conversations: string[];
  /** Every word of theirs the test made up: nobody else's context may hold one. */
  tokens: Set<string>;
  /** Words of deleted facts: in no context and no turn record any more. */
  deleted: Set<string>;
  /** Words memory may no longer hold (edited facts' old words, edited-away messages), in the system prompt and the window. */
  outOfMemory: Set<string>;
  /** Words said before "forget everything": in no window message any more. */
  beforeFloor: Set<string>;
  /** Messages of forgotten exchanges: sent, if at all, with nothing of the user's words. */
  forgottenMessages: Set<string>;
  /** Seq of the last message before "forget everything": memory items must come from later messages. */
  floorSeq: number;
  /** Per conversation, the clear point: the summary must come from later messages. */
  clearSeq: Map<string, number>;
  replies: Set<string>;
};

class World {
  users: User[] = [];
  log: string[] = [];
  used = new Set<string>();
  constructor(readonly rng: Rng) {}

  token(): string {
    for (;;) {
      const word = Array.from({ length: 3 }, () => this.rng.pick(SYLLABLES)).join('');
      const token = word[0].toUpperCase() + word.slice(1);
      // Distinct words, none inside another ("Munboqui" / "Munboquil"), so a check for one never sees the other.
      if (![...this.used].some((u) => u.includes(token) || token.includes(u))) {
        this.used.add(token);
        return token;
      }
    }
  }

  statement(user: User): string {
    const token = this.token();
    user.tokens.add(token);
    return this.rng.pick(STATEMENTS).say(token);
  }
}

const tokensIn = (text: string, user: User) => [...user.tokens].filter((t) => text.includes(t));
/** Where a word sits in a text, for the failure message. */
const around = (text: string, word: string) => {
  const at = text.indexOf(word);
  return at < 0 ? '' : JSON.stringify(text.slice(Math.max(0, at - 120), at + word.length + 60));
};

async function say(user: User, conversationId: string, text: string, messageId?: string) {
  const body = { conversationId, message: { text, ...(messageId ? { id: messageId } : {}) } };
  const chunks = await readChunks(await chat(user.client.request('/api/chat', { body })));
  const start = chunks.find((c) => c.type === 'start');
  if (start) user.replies.add(start.messageId as string);
  await postTurnSettled(user.client.user.id);
}

/** Every active fact, page after page (the list is paged; a long run keeps more than one page). */
async function activeFacts(user: User): Promise<Array<{ id: string; content: string }>> {
  const facts: Array<{ id: string; content: string }> = [];
  let cursor: string | null = '';
  for (let pages = 0; cursor !== null; pages++) {
    expect(pages, 'pages of facts').toBeLessThan(100);
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await (await listFacts(user.client.request(`/api/facts?status=active&limit=100${query}`))).json();
    facts.push(...page.facts);
    cursor = page.nextCursor;
  }
  return facts;
}

/** One random action of one user; returns a line for the failure log. */
async function act(world: World, user: User): Promise<string> {
  const { rng } = world;
  const conversationId = rng.pick(user.conversations);
  const messages =
    await getSql()`select id, role, content from messages where conversation_id = ${conversationId} order by created_at, seq`;
  const roll = rng.next();
  const userMessages = messages.filter((m) => m.role === 'user');

  if (roll < 0.24 || userMessages.length === 0) {
    const text = rng.next() < 0.75 ? world.statement(user) : rng.pick(FILLERS);
    await say(user, conversationId, text);
    return `say ${JSON.stringify(text)}`;
  }
  if (roll < 0.3) {
    // A question whose reply quotes memory: the quote is a copy that every later correction must reach.
    const question = rng.pick(STATEMENTS).ask;
    await say(user, conversationId, question);
    if (rng.next() < 0.5) return `ask ${JSON.stringify(question)}`;
    // A follow-up that names nothing: its rewritten query copies words from the window.
    const followUp = /\p{Script=Han}/u.test(question) ? '那是从什么时候开始的？' : 'And since when is that?';
    await say(user, conversationId, followUp);
    return `ask ${JSON.stringify(question)}, then ${JSON.stringify(followUp)}`;
  }
  if (roll < 0.38) {
    const target = rng.pick(userMessages);
    // What the edit takes away: the old text and everything after it (in conversation order; the
    // user's words only, since replies may quote what is still true elsewhere).
    const removed = messages.slice(messages.indexOf(target)).filter((m) => m.role === 'user');
    for (const m of removed) for (const t of tokensIn(m.content as string, user)) user.outOfMemory.add(t);
    const text = world.statement(user);
    user.forgottenMessages.delete(target.id as string); // written afresh: a new statement
    await say(user, conversationId, text, target.id as string);
    return `edit message ${JSON.stringify(target.content)} → ${JSON.stringify(text)}`;
  }
  if (roll < 0.43) {
    const target = rng.pick(messages);
    if (target.role === 'user') for (const t of tokensIn(target.content as string, user)) user.outOfMemory.add(t);
    await removeMessage(user.client.request(`/api/messages/${target.id}`, { method: 'DELETE' }), params({ id: target.id as string }));
    await postTurnSettled(user.client.user.id);
    return `remove ${target.role} message ${JSON.stringify(target.content)}`;
  }
  const facts = await activeFacts(user);
  if (roll < 0.55 && facts.length > 0) {
    const fact = rng.pick(facts);
    for (const t of tokensIn(fact.content, user)) user.outOfMemory.add(t);
    const content = world.statement(user).replace(/[.。]$/u, '');
    await editFact(user.client.request(`/api/facts/${fact.id}`, { method: 'PATCH', body: { content } }), params({ id: fact.id }));
    return `edit fact ${JSON.stringify(fact.content)} → ${JSON.stringify(content)}`;
  }
  if (roll < 0.63 && facts.length > 0) {
    const fact = rng.pick(facts);
    for (const t of tokensIn(fact.content, user)) user.deleted.add(t);
    await deleteFact(user.client.request(`/api/facts/${fact.id}`, { method: 'DELETE' }), params({ id: fact.id }));
    return `delete fact ${JSON.stringify(fact.content)}`;
  }
  if (roll < 0.68 && facts.length > 0) {
    // Asked in the chat, in the user's words: forgotten before the reply, which never repeats it.
    const fact = rng.pick(facts);
    const request = /\p{Script=Han}/u.test(fact.content) ? `请忘记${fact.content}这件事。` : `Please forget that ${fact.content}.`;
    for (const t of tokensIn(fact.content, user)) user.deleted.add(t);
    await say(user, conversationId, request);
    return `ask to forget ${JSON.stringify(fact.content)}`;
  }
  const summaryUrl = `/api/conversations/${conversationId}/summary`;
  if (roll < 0.73) {
    const token = world.token();
    user.tokens.add(token);
    await editSummary(
      user.client.request(summaryUrl, { method: 'PUT', body: { content: `- Staff note: ask about ${token}.` } }),
      params({ id: conversationId }),
    );
    return `edit summary (note ${token})`;
  }
  if (roll < 0.78) {
    const [{ seq }] = await getSql()`select coalesce(max(seq), 0)::bigint as seq from messages where conversation_id = ${conversationId}`;
    const response = await clearSummary(user.client.request(summaryUrl, { method: 'DELETE' }), params({ id: conversationId }));
    if (response.status === 200) user.clearSeq.set(conversationId, Number(seq));
    return `clear summary (${response.status})`;
  }
  if (roll < 0.81) {
    const [{ seq }] = await getSql()`select coalesce(max(seq), 0)::bigint as seq from messages where user_id = ${user.client.user.id}`;
    await forgetAll(user.client.request('/api/memory', { method: 'DELETE' }));
    user.floorSeq = Number(seq);
    for (const t of user.tokens) user.beforeFloor.add(t);
    return 'forget everything';
  }
  if (roll < 0.84) {
    const [episode] =
      await getSql()`select id from episodes where user_id = ${user.client.user.id} and content <> '' order by random() limit 1`;
    if (!episode) return 'forget an exchange (none)';
    const sources = await getSql()`select message_id from memory_sources where episode_id = ${episode.id}`;
    for (const { message_id } of sources) user.forgottenMessages.add(message_id as string);
    await forgetEpisode(user.client.request(`/api/episodes/${episode.id}`, { method: 'DELETE' }), params({ id: episode.id as string }));
    await postTurnSettled(user.client.user.id);
    return `forget exchange ${episode.id}`;
  }
  if (roll < 0.9) {
    const chunks = await readChunks(
      await chat(user.client.request('/api/chat', { body: { conversationId, trigger: 'regenerate-message' } })),
    );
    await postTurnSettled(user.client.user.id);
    const retried = chunks.find((c) => c.type === 'start')?.messageId as string | undefined;
    // Written afresh from a context that held nothing forgotten: a new text, not the forgotten one.
    if (retried) user.forgottenMessages.delete(retried);
    return `retry (${retried ?? 'refused'})`;
  }
  const created = await createConversation(user.client.request('/api/conversations', { method: 'POST' }));
  user.conversations.push((await created.json()).conversation.id);
  return 'new conversation';
}

/** Seq of each message, for checking where memory items came from. */
async function seqOf(ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await getSql()`select id, seq from messages where id = any(${ids}::uuid[])`;
  return new Map(rows.map((r) => [r.id as string, Number(r.seq)]));
}

async function checkInvariants(world: World, user: User): Promise<void> {
  const conversationId = world.rng.pick(user.conversations);
  // The probe names the user's own words, so that anything still stored about them would be recalled.
  const named = [...user.tokens].slice(-6).join(', ');
  const state: TurnState = await previewContext({ userId: user.client.user.id, conversationId }, `What do you remember about ${named}?`);
  const text = contextText(state).replace(`What do you remember about ${named}?`, '');

  for (const t of user.deleted) expect(text, `a deleted fact's word "${t}" is in the context: ${around(text, t)}`).not.toContain(t);
  for (const t of user.outOfMemory)
    expect(state.system, `corrected-away "${t}" is in a memory block: ${around(state.system, t)}`).not.toContain(t);
  const window = state.messages.slice(0, -1).map((m) => m.content as string);
  const windowText = window.join('\n');
  for (const t of [...user.outOfMemory, ...user.beforeFloor])
    expect(windowText, `corrected-away "${t}" is in the recent window: ${around(windowText, t)}`).not.toContain(t);
  for (const message of state.history.filter((m) => user.forgottenMessages.has(m.id))) {
    expect(message.content, `forgotten message ${message.id} is sent with its words`).toBe(FORGOTTEN);
  }
  for (const other of world.users.filter((u) => u !== user)) {
    for (const t of other.tokens) expect(text, `${other.name}'s "${t}" reached ${user.name}: ${around(text, t)}`).not.toContain(t);
  }

  const memory = state.numbered;
  const seqs = await seqOf([...new Set(memory.flatMap((item) => item.sourceMessageIds))]);
  for (const item of memory) {
    for (const id of item.sourceMessageIds) {
      const seq = seqs.get(id);
      if (seq === undefined) continue; // a removed message: its memory must be gone, checked by words above
      expect(seq, `${item.key} comes from before "forget everything"`).toBeGreaterThan(user.floorSeq);
      if (item.kind === 'summary')
        expect(seq, `${item.key} comes from before the clear point`).toBeGreaterThan(user.clearSeq.get(conversationId) ?? 0);
    }
  }

  const sent = [
    { role: 'system' as const, content: state.system },
    ...state.messages.map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content as string })),
  ];
  const kept = state.budget!.decisions.filter((d) => d.kept).reduce((sum, d) => sum + d.tokens, 0);
  expect(kept, 'recorded tokens add up to the total').toBe(state.budget!.total);
  expect(kept, 'recorded tokens add up to what is sent').toBe(countChatTokens(sent, state.budget!.limits.encoding));

  const records =
    await getSql()`select assistant_message_id, record::text as record from turn_records where user_id = ${user.client.user.id}`;
  const recorded = new Set(records.map((r) => r.assistant_message_id as string));
  for (const reply of user.replies) expect(recorded.has(reply), `the turn record of ${reply} is gone`).toBe(true);
  // Every text field of a record, and of its citation row (items sent, retrieval runs).
  const citations =
    await getSql()`select assistant_message_id, (items::text || retrieval_runs::text) as record from citations where user_id = ${user.client.user.id}`;
  for (const row of [...records, ...citations]) {
    for (const t of user.deleted)
      expect(row.record as string, `a turn record still quotes deleted "${t}": ${around(row.record as string, t)}`).not.toContain(t);
  }
}

beforeAll(() =>
  setEnv({
    HISTORY_WINDOW: '6',
    SUMMARY_KEEP_RAW: '4',
    SUMMARY_START_MESSAGES: '6',
    SUMMARY_REFRESH_MESSAGES: '2',
    EPISODE_SCOPE: SEED % 2 ? 'user' : 'conversation',
  }),
);
afterAll(() =>
  setEnv({
    HISTORY_WINDOW: undefined,
    SUMMARY_KEEP_RAW: undefined,
    SUMMARY_START_MESSAGES: undefined,
    SUMMARY_REFRESH_MESSAGES: undefined,
    EPISODE_SCOPE: undefined,
  }),
);

/** `steps` random steps of three users from `seed`, each followed by the checks; a failure prints the steps so far. */
async function runInvariants(seed: number, steps: number, label: string): Promise<void> {
  const world = new World(random(seed));
  for (const name of ['ana', 'bo', 'chen']) {
    const client = await newClient();
    const created = await createConversation(client.request('/api/conversations', { method: 'POST' }));
    world.users.push({
      name,
      client,
      conversations: [(await created.json()).conversation.id],
      tokens: new Set(),
      deleted: new Set(),
      outOfMemory: new Set(),
      beforeFloor: new Set(),
      forgottenMessages: new Set(),
      floorSeq: 0,
      clearSeq: new Map(),
      replies: new Set(),
    });
  }
  const started = Date.now();
  for (let step = 1; step <= steps; step++) {
    const user = world.rng.pick(world.users);
    try {
      world.log.push(`${step}. ${user.name}: ${await act(world, user)}`);
      await checkInvariants(world, user);
    } catch (error) {
      console.error(`Invariant failed (${label}). Seed ${seed}, step ${step}. Steps:\n${world.log.join('\n')}`);
      throw error;
    }
  }
  console.info(`invariants (${label}): ${steps} steps, seed ${seed}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

it(`memory invariants hold over ${STEPS} random steps (seed ${SEED})`, { timeout: Math.max(120_000, STEPS * 3_000) }, () =>
  runInvariants(SEED, STEPS, 'offline model'),
);

describe('through an OpenAI-compatible model that repeats its context without citing it', () => {
  serveOpenAIStub({ CHAT_MODEL: 'stub-chat', MEMORY_MODEL: 'stub-memory' }, (stub) => {
    stub.respond = repeatingModel;
  });

  it(
    `memory invariants hold over ${OPENAI_STEPS} random steps (seed ${SEED + 1})`,
    { timeout: Math.max(120_000, OPENAI_STEPS * 3_000) },
    () => runInvariants(SEED + 1, OPENAI_STEPS, 'repeating OpenAI-compatible model'),
  );
});
