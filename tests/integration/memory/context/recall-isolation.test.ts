import { afterAll, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { getSql } from '@/db/client';
import { createConversation } from '@/db/conversations';
import { contextText, previewContext } from '@/lib/memory/context/preview';
import type { TurnState } from '@/lib/memory/context/state';
import { type Client, newClient, params, readChunks, setEnv, textOf } from '@/tests/support/app';
import { importTurns, postTurnSettled } from '@/tests/support/memory';
import { mentions, type Person, population, VALUE_KINDS } from '@/tests/support/recall-population';

/**
 * Many users telling the same kinds of things with their own values, then asking about themselves
 * through the real recall path: no one's context (system prompt, messages, everything recalled,
 * before and after the budget) holds another user's value, with episodes recalled per conversation
 * and across the user's conversations. Seeded: the seed is printed, and a failure names the case.
 * Bigger by hand: RECALL_ISOLATION_USERS=40 RECALL_ISOLATION_SEED=123 npx vitest run tests/integration/memory/context/recall-isolation.test.ts
 */
const USERS = Number(process.env.RECALL_ISOLATION_USERS ?? 12);
const SEED = Number(process.env.RECALL_ISOLATION_SEED ?? Math.floor(Math.random() * 2 ** 31));
if (!Number.isInteger(USERS) || USERS < 2 || !Number.isInteger(SEED))
  throw new Error('RECALL_ISOLATION_USERS (2 or more) and RECALL_ISOLATION_SEED must be whole numbers');
const SCOPES = ['conversation', 'user'] as const;

type Subject = Person & { client: Client; conversations: Record<'aboutMe' | 'hike' | 'fresh', string> };
type Case = { user: number; scope: string; conversation: string; question: string; via: string };
type Leak = Case & { value: string; kind: string; owner: number; near: string };

afterAll(() => setEnv({ EPISODE_SCOPE: undefined }));

/** What every context holds whatever the user said: the system prompt and its instructions. */
async function fixedText(): Promise<string> {
  const client = await newClient();
  const { id } = await createConversation(client.user.id);
  return contextText(await previewContext({ userId: client.user.id, conversationId: id }, 'Hello'));
}

async function setUp(person: Person): Promise<Subject> {
  const client = await newClient();
  const userId = client.user.id;
  const aboutMe = await importTurns(userId, person.aboutMe, person.lang === 'en' ? 'About me' : '关于我');
  const hike = await importTurns(userId, person.hike, person.lang === 'en' ? 'The hike' : '爬山');
  const fresh = (await createConversation(userId)).id;
  return { ...person, client, conversations: { aboutMe, hike, fresh } };
}

/** A few at a time: the embedded database serves one query at a time anyway. */
async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return results;
}

/** Everything assembled for the model, recalled items with their metadata included. */
function assembled(state: TurnState): string {
  return [contextText(state), JSON.stringify({ candidates: state.candidates, retrieval: state.retrieval, runs: state.runs })].join('\n');
}

/** Another user's values in a text, each with a little of the text around it. */
function leaksIn(text: string, reader: Subject, everyone: Subject[], found: Case): Leak[] {
  return everyone.flatMap((owner) =>
    owner === reader
      ? []
      : VALUE_KINDS.filter((kind) => mentions(text, owner.values[kind])).map((kind) => {
          const at = text.toLowerCase().indexOf(owner.values[kind].toLowerCase());
          return { ...found, value: owner.values[kind], kind, owner: owner.index, near: text.slice(Math.max(0, at - 80), at + 80) };
        }),
  );
}

/** Ids of recalled items (facts, episodes, messages, summaries' conversations) that are not the user's. */
async function foreignSources(userId: string, states: TurnState[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const item of states.flatMap((s) => s.candidates)) {
    for (const id of item.sourceMessageIds) ids.add(id);
    const [, id] = item.key.match(/^(?:fact|episode|message|summary):([0-9a-f-]{36})/) ?? [];
    if (id) ids.add(id);
  }
  const all = [...ids];
  if (all.length === 0) return [];
  const rows = await getSql()`
    select id::text from messages where id::text in ${getSql()(all)} and user_id <> ${userId}
    union all select id::text from facts where id::text in ${getSql()(all)} and user_id <> ${userId}
    union all select id::text from episodes where id::text in ${getSql()(all)} and user_id <> ${userId}
    union all select id::text from conversations where id::text in ${getSql()(all)} and user_id <> ${userId}`;
  return rows.map((r) => r.id as string);
}

/** One question through the chat route: the streamed reply and the stored turn record. */
async function askByChat(subject: Subject, question: string): Promise<string> {
  const conversationId = subject.conversations.fresh;
  const chunks = await readChunks(
    await chat(subject.client.request('/api/chat', { body: { conversationId, message: { text: question } } })),
  );
  const id = chunks.find((c) => c.type === 'start')!.messageId as string;
  await postTurnSettled(subject.client.user.id);
  const response = await getContext(subject.client.request(`/api/messages/${id}/context`), params({ id }));
  expect(response.status).toBe(200);
  return `${textOf(chunks)}\n${JSON.stringify(await response.json())}`;
}

function describeLeaks(leaks: Leak[]): string {
  const shown = leaks
    .slice(0, 5)
    .map(
      (l) =>
        `  user ${l.user} (${l.via}, scope ${l.scope}, ${l.conversation}) asked ${JSON.stringify(l.question)}: got user ${l.owner}'s ${l.kind} ${JSON.stringify(l.value)} near ${JSON.stringify(l.near)}`,
    );
  return `seed ${SEED} (rerun with RECALL_ISOLATION_SEED=${SEED} RECALL_ISOLATION_USERS=${USERS}): ${leaks.length} leaks\n${shown.join('\n')}`;
}

describe('recall keeps every user to their own memory', () => {
  it(
    `${USERS} users with look-alike facts and exchanges, English and Chinese`,
    async () => {
      console.info(`recall-isolation: seed ${SEED}, ${USERS} users`);
      const started = performance.now();
      const people = population(SEED, USERS, await fixedText());
      const subjects = await inBatches(people, 3, setUp);
      const setUpMs = performance.now() - started;

      const leaks: Leak[] = [];
      const foreignRows: string[] = [];
      const seenOwn = new Map<Subject, string[]>(subjects.map((s) => [s, []]));
      let contexts = 0;
      for (const scope of SCOPES) {
        setEnv({ EPISODE_SCOPE: scope });
        for (const subject of subjects) {
          const userId = subject.client.user.id;
          // One question through the chat route itself, the rest through the same pipeline without storing.
          const byChat = await askByChat(subject, subject.questions[0]);
          leaks.push(
            ...leaksIn(byChat, subject, subjects, {
              user: subject.index,
              scope,
              conversation: 'fresh',
              question: subject.questions[0],
              via: 'chat route',
            }),
          );
          const states: TurnState[] = [];
          for (const [name, conversationId] of Object.entries(subject.conversations)) {
            for (const question of subject.questions) {
              const state = await previewContext({ userId, conversationId }, question);
              const text = assembled(state);
              leaks.push(...leaksIn(text, subject, subjects, { user: subject.index, scope, conversation: name, question, via: 'preview' }));
              seenOwn.get(subject)!.push(text);
              states.push(state);
            }
          }
          contexts += states.length + 1;
          const foreign = await foreignSources(userId, states);
          if (foreign.length)
            foreignRows.push(`user ${subject.index}, scope ${scope}: ${foreign.length} rows, e.g. ${foreign.slice(0, 3).join(', ')}`);
        }
      }
      const checkMs = performance.now() - started - setUpMs;
      const questions = subjects.reduce((n, s) => n + s.questions.length, 0);
      console.info(
        `recall-isolation: seed ${SEED}, ${USERS} users, ${questions} questions, ${contexts} contexts checked; set-up ${Math.round(setUpMs)} ms, checks ${Math.round(checkMs)} ms`,
      );

      expect(leaks.length, describeLeaks(leaks)).toBe(0);
      expect(foreignRows, `seed ${SEED}: recalled items from other users' rows`).toEqual([]);
      // The check means something only if recall works: each user's own values reach their contexts.
      for (const [subject, texts] of seenOwn) {
        const missing = VALUE_KINDS.filter((kind) => !texts.some((t) => mentions(t, subject.values[kind])));
        expect(missing, `seed ${SEED}: user ${subject.index} (${subject.lang}) never saw their own values`).toEqual([]);
      }
    },
    Math.max(180_000, USERS * 6_000),
  );
});
