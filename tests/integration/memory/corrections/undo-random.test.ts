import { afterAll, beforeAll, expect, it } from 'vitest';
import { DELETE as clearSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as undoRoute } from '@/app/api/corrections/[id]/undo/route';
import { DELETE as forgetEpisode } from '@/app/api/episodes/[id]/route';
import { DELETE as deleteFact, PATCH as editFact } from '@/app/api/facts/[id]/route';
import { DELETE as forgetAll } from '@/app/api/memory/route';
import { DELETE as removeMessage } from '@/app/api/messages/[id]/route';
import { getSql } from '@/db/client';
import { previewContext } from '@/lib/memory/context/preview';
import { type Client, newClient, params, setEnv } from '@/tests/support/app';
import { fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

/**
 * Random corrections and undos of one user's memory, beside a second user's: after every step,
 * - what each correction still standing took away is in no memory block of a later context (so an
 *   undo never brings back another correction's content, nor the words an undone edit put in);
 * - after an undo, what that correction took away is recalled again (unless another standing
 *   correction also took it), the exchange is indexed again, the summary says again what it said;
 * - undo answers 200, or 409 when a later change touched the same memory; never anything else;
 * - the other user's facts are untouched and never reach this user's context.
 * Seeded; a failure prints the seed and the steps. More: UNDO_STEPS=200 UNDO_SEED=3 npx vitest run tests/integration/memory/corrections/undo-random.test.ts
 */
const SEED = Number(process.env.UNDO_SEED ?? 20261124);
const STEPS = Number(process.env.UNDO_STEPS ?? 24);

function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: T[]): T => items[Math.floor(next() * items.length)] };
}

/** Statements the offline rules learn as facts (English and Chinese), around a made-up word. */
const STATEMENTS = [
  (t: string) => `I live in ${t}.`,
  (t: string) => `My brother is called ${t}.`,
  (t: string) => `I have a dog named ${t}.`,
  (t: string) => `我住在${t}。`,
  (t: string) => `我的狗叫${t}。`,
];
const SYLLABLES = ['ka', 'vel', 'tor', 'mi', 'sun', 'dra', 'pol', 'yen', 'rof', 'zu', 'bex', 'lam'];

/** Where a correction took words away: every memory block, the episodes and summary, or the summary alone. */
type Scope = 'memory' | 'derived' | 'summary';
/** `added`: the word an edit put in, which its undo takes away again. */
type Correction = { label: string; undo: { id: string }; gone: Array<{ token: string; scope: Scope }>; added?: string };

const rng = random(SEED);
const used = new Set<string>();
function token(): string {
  for (;;) {
    const word = Array.from({ length: 3 }, () => rng.pick(SYLLABLES)).join('');
    const t = word[0].toUpperCase() + word.slice(1);
    if (![...used].some((u) => u.includes(t) || t.includes(u))) {
      used.add(t);
      return t;
    }
  }
}

let owner: Client;
let other: Client;
let conversationId: string;
let ownerTokens: string[];
let otherFacts: string[];
const log: string[] = [];

const call = async (response: Response) => ({ status: response.status, body: await response.json() });
const json = async (client: Client, response: Response) => {
  const answer = await call(response);
  await postTurnSettled(client.user.id);
  return answer;
};

beforeAll(async () => {
  setEnv({ SUMMARY_KEEP_RAW: '4', HISTORY_WINDOW: '4' });
  owner = await newClient();
  other = await newClient();
  const said = Array.from({ length: 8 }, () => token());
  conversationId = await importTurns(owner.user.id, [
    ...said.map((t): [string, string] => [rng.pick(STATEMENTS)(t), 'Noted.']),
    ...fillerTurns(4),
  ]);
  const otherSaid = Array.from({ length: 3 }, () => token());
  await importTurns(other.user.id, [...otherSaid.map((t): [string, string] => [rng.pick(STATEMENTS)(t), 'Noted.'])]);
  const learned = (await getSql()`select content from facts where user_id = ${owner.user.id} and status = 'active'`).map(
    (r) => r.content as string,
  );
  ownerTokens = said.filter((t) => learned.some((c) => c.includes(t)));
  otherFacts = await activeFactsOf(other);
  expect(ownerTokens.length).toBeGreaterThan(3);
  expect(otherFacts.length).toBeGreaterThan(0);
});

afterAll(() => setEnv({ SUMMARY_KEEP_RAW: undefined, HISTORY_WINDOW: undefined }));

async function activeFactsOf(client: Client) {
  return (await getSql()`select content from facts where user_id = ${client.user.id} and status = 'active' order by content`).map(
    (r) => r.content as string,
  );
}

/** The memory blocks a question about the word would be given, by kind. */
async function recall(word: string) {
  const state = await previewContext({ userId: owner.user.id, conversationId }, `What do you know about ${word}?`);
  return state.numbered.map((item) => ({ kind: item.kind, text: item.text }));
}
const inScope = (scope: Scope, kind: string) => scope === 'memory' || kind === 'summary' || (scope === 'derived' && kind === 'episode');
/** Whether a correction that took `t` away at `scope` also takes it from where `wanted` looks. */
const covers = (scope: Scope, wanted: Scope) => scope === 'memory' || scope === wanted || (scope === 'derived' && wanted === 'summary');

/** One random correction of the owner's memory, with what it takes away; undefined when there is nothing to correct that way. */
async function correct(): Promise<Correction | undefined> {
  // Forgetting everything blocks every older undo while it stands, so it is drawn less often.
  const kind = rng.pick([
    'delete',
    'edit',
    'episode',
    'summary',
    'message',
    'delete',
    'edit',
    'episode',
    'summary',
    'message',
    'everything',
  ]);
  const facts = await getSql()`select id, content from facts where user_id = ${owner.user.id} and status = 'active'`;
  const withToken = (text: string) => ownerTokens.filter((t) => text.includes(t));
  if (kind === 'delete' || kind === 'edit') {
    if (facts.length === 0) return undefined;
    const fact = rng.pick(facts);
    const id = fact.id as string;
    if (kind === 'delete') {
      const { body } = await json(owner, await deleteFact(owner.request(`/api/facts/${id}`, { method: 'DELETE' }), params({ id })));
      return {
        label: `delete "${fact.content}"`,
        undo: body.undo,
        gone: withToken(fact.content).map((t) => ({ token: t, scope: 'memory' })),
      };
    }
    const fresh = token();
    ownerTokens.push(fresh);
    const content = rng.pick(STATEMENTS)(fresh);
    const { body } = await json(
      owner,
      await editFact(owner.request(`/api/facts/${id}`, { method: 'PATCH', body: { content } }), params({ id })),
    );
    return {
      label: `edit "${fact.content}" to "${content}"`,
      undo: body.undo,
      gone: withToken(fact.content).map((t) => ({ token: t, scope: 'memory' })),
      added: fresh,
    };
  }
  if (kind === 'episode') {
    const episodes = (await getSql()`select id, content from episodes where user_id = ${owner.user.id} and content <> ''`).filter(
      (e) => withToken(e.content).length > 0,
    );
    if (episodes.length === 0) return undefined;
    const episode = rng.pick(episodes);
    const id = episode.id as string;
    const { body } = await json(owner, await forgetEpisode(owner.request(`/api/episodes/${id}`, { method: 'DELETE' }), params({ id })));
    return {
      label: `forget episode "${episode.content.slice(0, 40)}"`,
      undo: body.undo,
      gone: withToken(episode.content).map((t) => ({ token: t, scope: 'derived' })),
    };
  }
  if (kind === 'summary') {
    const [summary] = await getSql()`select content from summaries where conversation_id = ${conversationId} and content <> ''`;
    if (!summary) return undefined;
    const url = `/api/conversations/${conversationId}/summary`;
    const { status, body } = await json(
      owner,
      await clearSummary(owner.request(url, { method: 'DELETE' }), params({ id: conversationId })),
    );
    if (status !== 200) return undefined;
    return { label: 'clear summary', undo: body.undo, gone: withToken(summary.content).map((t) => ({ token: t, scope: 'summary' })) };
  }
  if (kind === 'message') {
    const messages = (await getSql()`select id, content from messages where conversation_id = ${conversationId} and role = 'user'`).filter(
      (m) => withToken(m.content).length > 0,
    );
    if (messages.length === 0) return undefined;
    const message = rng.pick(messages);
    const id = message.id as string;
    const { body } = await json(owner, await removeMessage(owner.request(`/api/messages/${id}`, { method: 'DELETE' }), params({ id })));
    return {
      label: `remove message "${message.content}"`,
      undo: body.undo,
      gone: withToken(message.content).map((t) => ({ token: t, scope: 'memory' })),
    };
  }
  const { body } = await json(owner, await forgetAll(owner.request('/api/memory', { method: 'DELETE' })));
  const known = facts.map((f) => f.content as string).join('\n');
  return { label: 'forget everything', undo: body.undo, gone: withToken(known).map((t) => ({ token: t, scope: 'memory' })) };
}

it(`undo restores what a correction took away, and nothing else (seed ${SEED}, ${STEPS} steps)`, {
  timeout: Math.max(120_000, STEPS * 6_000),
}, async () => {
  const standing: Correction[] = [];
  // Words an undone edit had put in: in no memory block afterwards.
  const withdrawn: string[] = [];
  const fail = (message: string) => {
    throw new Error(`seed ${SEED}, steps:\n${log.join('\n')}\n${message}`);
  };
  for (let step = 0; step < STEPS; step++) {
    if (standing.length > 0 && rng.next() < 0.45) {
      const target = rng.pick(standing);
      const { status, body } = await json(
        owner,
        await undoRoute(owner.request(`/api/corrections/${target.undo.id}/undo`, { method: 'POST' }), params({ id: target.undo.id })),
      );
      log.push(`${step}: undo ${target.label} → ${status}`);
      if (status === 409 && body.error.code === 'undo_blocked') continue;
      if (status !== 200) fail(`undo answered ${status} ${JSON.stringify(body)}`);
      standing.splice(standing.indexOf(target), 1);
      if (target.added) withdrawn.push(target.added);
      const still = (t: string, scope: Scope) => standing.some((c) => c.gone.some((g) => g.token === t && covers(g.scope, scope)));
      for (const { token: t, scope } of target.gone) {
        if (still(t, scope)) continue;
        if (scope === 'memory' && !(await recall(t)).some((item) => item.text.includes(t))) fail(`"${t}" is not recalled after its undo`);
        if (
          scope === 'derived' &&
          (await getSql()`select 1 from episodes where user_id = ${owner.user.id} and content like ${`%${t}%`}`).length === 0
        )
          fail(`the exchange with "${t}" is not indexed again after its undo`);
        if (scope === 'summary') {
          const [summary] = await getSql()`select content from summaries where conversation_id = ${conversationId}`;
          if (!summary?.content.includes(t)) fail(`the summary lacks "${t}" after its undo: ${JSON.stringify(summary?.content)}`);
        }
      }
    } else {
      const correction = await correct();
      if (!correction) continue;
      log.push(`${step}: ${correction.label}`);
      if (!correction.undo?.id) fail(`${correction.label} answered no undo`);
      standing.push(correction);
    }
    for (const c of standing)
      for (const { token: t, scope } of c.gone) {
        const leaked = (await recall(t)).filter((item) => inScope(scope, item.kind) && item.text.includes(t));
        if (leaked.length > 0) fail(`"${t}" (${c.label}) is back in ${leaked[0].kind}: ${JSON.stringify(leaked[0].text)}`);
      }
    for (const t of withdrawn) {
      const leaked = (await recall(t)).filter((item) => item.text.includes(t));
      if (leaked.length > 0) fail(`"${t}", put in by an undone edit, is in ${leaked[0].kind}: ${JSON.stringify(leaked[0].text)}`);
    }
    const probe = JSON.stringify(await recall(otherFacts[0]));
    if (otherFacts.some((f) => probe.includes(f))) fail('another user’s fact reached this user’s context');
    expect(await activeFactsOf(other)).toEqual(otherFacts);
  }
  if (process.env.UNDO_LOG) console.log(log.join('\n'));
  expect(log.length).toBeGreaterThan(STEPS / 3);
});
