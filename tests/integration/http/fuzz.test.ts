import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as clearConversation } from '@/app/api/conversations/[id]/messages/route';
import { DELETE as deleteConversation, PATCH as renameConversation } from '@/app/api/conversations/[id]/route';
import { DELETE as clearSummary, PUT as editSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { DELETE as deleteEpisode } from '@/app/api/episodes/[id]/route';
import { DELETE as deleteFact, PATCH as editFact } from '@/app/api/facts/[id]/route';
import { POST as addFact } from '@/app/api/facts/route';
import { POST as importConversation } from '@/app/api/import/route';
import { DELETE as deleteMe } from '@/app/api/me/route';
import { DELETE as forgetEverything } from '@/app/api/memory/route';
import { POST as replay } from '@/app/api/messages/[id]/replay/route';
import { DELETE as removeMessage } from '@/app/api/messages/[id]/route';
import { DELETE as staffClearSummary } from '@/app/api/staff/conversations/[id]/summary/route';
import { DELETE as staffDeleteFact, PATCH as staffEditFact } from '@/app/api/staff/facts/[id]/route';
import { POST as staffRetryJob } from '@/app/api/staff/jobs/[id]/retry/route';
import { POST as staffReplay } from '@/app/api/staff/messages/[id]/replay/route';
import { GET as staffUsers } from '@/app/api/staff/users/route';
import { getSql } from '@/db/client';
import { FACT_SLOTS } from '@/lib/memory/rules/fact-types';
import { params, setEnv } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { type BodyShape, badBodies, bodyOf, type Field, type Mutation } from '@/tests/support/bad-bodies';
import { fingerprint } from '@/tests/support/fingerprint';
import { type Browser, type Ids, ownerWithData } from '@/tests/support/routes';

/**
 * Property test of every route that takes a body: generated bad bodies (wrong types, unknown fields,
 * NUL, lone surrogates, huge strings, deep nesting, bad dates, not JSON, empty) are each refused
 * with a 4xx JSON error `{ error: { code, message } }`, never a 500, and nothing stored for the
 * user (or the staff member) changes. Seeded: FUZZ_SEED replays another run; a failure prints the
 * mutation that caused it.
 */
/** Bad bodies per route, spread over every kind that applies to it (each kind at least 3 times). */
const RUNS_PER_ROUTE = 25;
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_122);

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
type Target = { route: string; handler: Handler; path: (ids: Ids) => string; method: string; staff?: boolean; shape: BodyShape };

const noBody: BodyShape = { valid: {}, fields: [], objects: [[]], emptyIsValid: true };
const text = (path: Field['path'], max: number, extra: { nonEmpty?: boolean; required?: boolean } = {}): Field => ({
  path,
  kind: 'text',
  max,
  ...extra,
});
const replayShape: BodyShape = {
  valid: { mode: 'today', window: 4 },
  fields: [
    { path: ['mode'], kind: 'enum', values: ['stored', 'today'] },
    { path: ['budget'], kind: 'int', min: 1, max: 2_000_000 },
    { path: ['window'], kind: 'int', min: 0, max: 1000 },
    { path: ['factsTopK'], kind: 'int', min: 0, max: 200 },
    { path: ['episodesTopK'], kind: 'int', min: 0, max: 200 },
    { path: ['episodeScope'], kind: 'enum', values: ['conversation', 'user'] },
  ],
  objects: [[]],
  emptyIsValid: true,
};
const reason = text(['reason'], 500, { nonEmpty: true, required: true });

const targets: Target[] = [
  {
    route: 'POST /api/chat',
    handler: chat,
    path: () => '/api/chat',
    method: 'POST',
    shape: {
      valid: { conversationId: '', message: { text: 'Where do I live?' } },
      fields: [
        { path: ['conversationId'], kind: 'uuid', required: true },
        { path: ['message'], kind: 'object', required: true },
        text(['message', 'text'], 32_000, { nonEmpty: true, required: true }),
        { path: ['message', 'id'], kind: 'uuid' },
        { path: ['trigger'], kind: 'enum', values: ['submit-message', 'regenerate-message'] },
      ],
      objects: [[], ['message']],
      emptyIsValid: false,
    },
  },
  {
    route: 'POST /api/import',
    handler: importConversation,
    path: () => '/api/import',
    method: 'POST',
    shape: {
      valid: {
        title: 'Imported',
        messages: [{ role: 'user', content: 'I live in Oslo.', metadata: { source: 'fuzz' }, createdAt: '2024-05-01T12:00:00Z' }],
      },
      fields: [
        text(['title'], 200, { nonEmpty: true }),
        { path: ['messages'], kind: 'array', required: true },
        { path: ['messages', 0, 'role'], kind: 'enum', values: ['user', 'assistant'], required: true },
        text(['messages', 0, 'content'], 100_000, { nonEmpty: true, required: true }),
        { path: ['messages', 0, 'metadata'], kind: 'metadata' },
        { path: ['messages', 0, 'createdAt'], kind: 'date' },
      ],
      objects: [[], ['messages', 0]],
      emptyIsValid: false,
    },
  },
  {
    route: 'POST /api/conversations',
    handler: createConversation,
    path: () => '/api/conversations',
    method: 'POST',
    shape: { valid: { title: 'Plans' }, fields: [text(['title'], 200, { nonEmpty: true })], objects: [[]], emptyIsValid: true },
  },
  {
    route: 'PATCH /api/conversations/:id',
    handler: renameConversation,
    path: (i) => `/api/conversations/${i.conversation}`,
    method: 'PATCH',
    shape: {
      valid: { title: 'Plans' },
      fields: [text(['title'], 200, { nonEmpty: true, required: true })],
      objects: [[]],
      emptyIsValid: false,
    },
  },
  {
    route: 'PUT /api/conversations/:id/summary',
    handler: editSummary,
    path: (i) => `/api/conversations/${i.conversation}/summary`,
    method: 'PUT',
    shape: {
      valid: { content: '- The user lives in Oslo.' },
      fields: [text(['content'], 20_000, { required: true }), { path: ['version'], kind: 'int', min: 1 }],
      objects: [[]],
      emptyIsValid: false,
    },
  },
  {
    route: 'POST /api/facts',
    handler: addFact,
    path: () => '/api/facts',
    method: 'POST',
    shape: {
      valid: { content: 'I like tea.', slot: 'like' },
      fields: [text(['content'], 2000, { nonEmpty: true, required: true }), { path: ['slot'], kind: 'enum', values: FACT_SLOTS }],
      objects: [[]],
      emptyIsValid: false,
    },
  },
  {
    route: 'PATCH /api/facts/:id',
    handler: editFact,
    path: (i) => `/api/facts/${i.fact}`,
    method: 'PATCH',
    shape: {
      valid: { content: 'I live in Bergen.' },
      fields: [text(['content'], 2000, { nonEmpty: true, required: true })],
      objects: [[]],
      emptyIsValid: false,
    },
  },
  {
    route: 'POST /api/messages/:id/replay',
    handler: replay,
    path: (i) => `/api/messages/${i.reply}/replay`,
    method: 'POST',
    shape: replayShape,
  },
  {
    route: 'DELETE /api/conversations/:id/summary',
    handler: clearSummary,
    path: (i) => `/api/conversations/${i.conversation}/summary`,
    method: 'DELETE',
    shape: noBody,
  },
  { route: 'DELETE /api/facts/:id', handler: deleteFact, path: (i) => `/api/facts/${i.fact}`, method: 'DELETE', shape: noBody },
  { route: 'DELETE /api/episodes/:id', handler: deleteEpisode, path: (i) => `/api/episodes/${i.episode}`, method: 'DELETE', shape: noBody },
  { route: 'DELETE /api/messages/:id', handler: removeMessage, path: (i) => `/api/messages/${i.message}`, method: 'DELETE', shape: noBody },
  {
    route: 'DELETE /api/conversations/:id/messages',
    handler: clearConversation,
    path: (i) => `/api/conversations/${i.conversation}/messages`,
    method: 'DELETE',
    shape: noBody,
  },
  {
    route: 'DELETE /api/conversations/:id',
    handler: deleteConversation,
    path: (i) => `/api/conversations/${i.conversation}`,
    method: 'DELETE',
    shape: noBody,
  },
  { route: 'DELETE /api/memory', handler: forgetEverything, path: () => '/api/memory', method: 'DELETE', shape: noBody },
  {
    route: 'PATCH /api/staff/facts/:id',
    handler: staffEditFact,
    path: (i) => `/api/staff/facts/${i.fact}`,
    method: 'PATCH',
    staff: true,
    shape: {
      valid: { content: 'I live in Bergen.', reason: 'asked by the user' },
      fields: [text(['content'], 2000, { nonEmpty: true, required: true }), reason],
      objects: [[]],
      emptyIsValid: false,
    },
  },
  {
    route: 'DELETE /api/staff/facts/:id',
    handler: staffDeleteFact,
    path: (i) => `/api/staff/facts/${i.fact}`,
    method: 'DELETE',
    staff: true,
    shape: { valid: { reason: 'asked by the user' }, fields: [reason], objects: [[]], emptyIsValid: false },
  },
  {
    route: 'DELETE /api/staff/conversations/:id/summary',
    handler: staffClearSummary,
    path: (i) => `/api/staff/conversations/${i.conversation}/summary`,
    method: 'DELETE',
    staff: true,
    shape: { valid: { reason: 'asked by the user' }, fields: [reason], objects: [[]], emptyIsValid: false },
  },
  {
    route: 'POST /api/staff/messages/:id/replay',
    handler: staffReplay,
    path: (i) => `/api/staff/messages/${i.reply}/replay`,
    method: 'POST',
    staff: true,
    shape: replayShape,
  },
  {
    route: 'POST /api/staff/jobs/:id/retry',
    handler: staffRetryJob,
    path: (i) => `/api/staff/jobs/${i.job}/retry`,
    method: 'POST',
    staff: true,
    shape: noBody,
  },
  // Last: a body it wrongly took would delete the owner.
  { route: 'DELETE /api/me', handler: deleteMe, path: () => '/api/me', method: 'DELETE', shape: noBody },
];

let owner: Browser;
let staff: Browser;
let ids: Ids;
let staffId: string;
const outcomes = new Map<string, Map<number, number>>();

beforeAll(async () => {
  // Limits of their own would answer 429 before the body is read.
  setEnv({ CHAT_RATE_LIMIT: '0', IMPORT_RATE_LIMIT: '0' });
  const ownerBrowser = await member();
  owner = ownerBrowser;
  ids = await ownerWithData(ownerBrowser);
  const staffBrowser = await member({ staff: true });
  staff = staffBrowser;
  [{ id: staffId }] = await getSql()`select id from users where email = ${staffBrowser.email}`;
  // The first staff request makes the listed email staff (an audited role change): before any fingerprint.
  expect((await staffUsers(staff.request('/api/staff/users?q=nobody'))).status).toBe(200);
}, 120_000);

afterAll(() => {
  setEnv({ CHAT_RATE_LIMIT: undefined, IMPORT_RATE_LIMIT: undefined });
  const total = new Map<number, number>();
  for (const counts of outcomes.values()) for (const [status, n] of counts) total.set(status, (total.get(status) ?? 0) + n);
  const line = (counts: Map<number, number>) =>
    [...counts]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
  console.log(
    `fuzz: ${[...total.values()].reduce((a, b) => a + b, 0)} bad bodies, ${line(total)}\n${[...outcomes].map(([route, counts]) => `  ${route}: ${line(counts)}`).join('\n')}`,
  );
});

describe(`bad bodies (about ${RUNS_PER_ROUTE} per route, of every kind, seed ${SEED}): a 4xx JSON error and nothing written`, () => {
  it.each(targets)('$route', async (target) => {
    const caller = target.staff ? staff : owner;
    const watched = target.staff ? [ids.user, staffId] : [ids.user];
    const valid = target.route === 'POST /api/chat' ? { ...target.shape.valid, conversationId: ids.conversation } : target.shape.valid;
    const shape = { ...target.shape, valid };
    const path = target.path(ids);
    const counts = new Map<number, number>();
    outcomes.set(target.route, counts);

    const refusesAndWritesNothing = async (mutation: Mutation) => {
      const before = await fingerprint(watched);
      const request = new Request(`http://localhost${path}`, {
        method: target.method,
        headers: { cookie: caller.request('/').headers.get('cookie') ?? '', 'content-type': 'application/json' },
        body: bodyOf(shape, mutation),
      });
      const response = await target.handler(request, params({ id: /[0-9a-f-]{36}/u.exec(path)?.[0] ?? '' }));
      counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
      expect(response.status, target.route).toBeGreaterThanOrEqual(400);
      expect(response.status, target.route).toBeLessThan(500);
      const { error } = await response.json();
      expect(error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      expect(await fingerprint(watched), `${target.route} wrote nothing`).toEqual(before);
    };

    const kinds = Object.entries(badBodies(shape));
    const numRuns = Math.max(3, Math.ceil(RUNS_PER_ROUTE / kinds.length));
    for (const [kind, bodies] of kinds) {
      await fc.assert(fc.asyncProperty(bodies, refusesAndWritesNothing), { numRuns, seed: SEED }).catch((error: Error) => {
        throw new Error(`${target.route}, ${kind}: ${error.message}`);
      });
    }
  });
});
