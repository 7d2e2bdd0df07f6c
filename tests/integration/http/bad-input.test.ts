import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { POST as chat, OPTIONS as chatOptions, PUT as chatPut } from '@/app/api/chat/route';
import { PATCH as renameConversation } from '@/app/api/conversations/[id]/route';
import { PUT as editSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { GET as listEpisodes } from '@/app/api/episodes/route';
import { PATCH as editFact } from '@/app/api/facts/[id]/route';
import { POST as addFact, GET as listFacts } from '@/app/api/facts/route';
import { POST as importConversation } from '@/app/api/import/route';
import { DELETE as forgetEverything } from '@/app/api/memory/route';
import { GET as staffAudit } from '@/app/api/staff/audit/route';
import { DELETE as staffDeleteFact, PATCH as staffEditFact } from '@/app/api/staff/facts/[id]/route';
import { GET as staffUsers } from '@/app/api/staff/users/route';
import { getSql } from '@/db/client';
import { type Client, newClient, params, readChunks, setEnv, storedMessages } from '@/tests/support/app';
import { browser, email, member } from '@/tests/support/auth';
import { fingerprint } from '@/tests/support/fingerprint';

let client: Client;
let conversationId: string;

beforeEach(async () => {
  client = await newClient();
  conversationId = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
  // One stored exchange that no bad request may disturb.
  await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text: 'Keep me' } } })));
});

const cases: Array<{ name: string; body: () => unknown; raw?: string; status: number; code: string; mentions: string }> = [
  { name: 'invalid JSON', body: () => undefined, raw: '{"conversationId": ', status: 400, code: 'invalid_json', mentions: 'JSON' },
  { name: 'a missing message', body: () => ({ conversationId }), status: 400, code: 'missing', mentions: 'message' },
  {
    name: 'an empty message',
    body: () => ({ conversationId, message: { text: '   ' } }),
    status: 400,
    code: 'empty',
    mentions: 'message.text',
  },
  {
    name: 'a message that is not text',
    body: () => ({ conversationId, message: { text: 42 } }),
    status: 400,
    code: 'invalid',
    mentions: 'message.text',
  },
  {
    name: 'a message over the size limit',
    body: () => ({ conversationId, message: { text: 'x'.repeat(32_001) } }),
    status: 400,
    code: 'too_large',
    mentions: '32000',
  },
  {
    name: 'a conversation id that is not a uuid',
    body: () => ({ conversationId: 'abc', message: { text: 'hi' } }),
    status: 400,
    code: 'invalid',
    mentions: 'conversationId',
  },
  {
    name: 'an unknown conversation id',
    body: () => ({ conversationId: crypto.randomUUID(), message: { text: 'hi' } }),
    status: 404,
    code: 'not_found',
    mentions: 'Conversation',
  },
  { name: 'an unknown trigger', body: () => ({ conversationId, trigger: 'explode' }), status: 400, code: 'invalid', mentions: 'trigger' },
];

describe('bad input to POST /api/chat gets a 4xx JSON error and writes nothing', () => {
  it.each(cases)('$name → $status $code', async ({ body, raw, status, code, mentions }) => {
    const before = await storedMessages(conversationId);
    const response = await chat(client.request('/api/chat', raw ? { rawBody: raw } : { body: body() }));
    expect(response.status).toBe(status);
    const json = await response.json();
    expect(json.error.code).toBe(code);
    expect(json.error.message).toContain(mentions);
    expect(await storedMessages(conversationId)).toEqual(before);
  });

  it("another user's conversation is a 404, and nothing is written to it", async () => {
    const stranger = await newClient();
    const before = await storedMessages(conversationId);
    const response = await chat(stranger.request('/api/chat', { body: { conversationId, message: { text: 'let me in' } } }));
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
    expect(await storedMessages(conversationId)).toEqual(before);
  });

  it("another conversation's message id edits nothing: it is a new question there, under an id of the server's", async () => {
    const other = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
    const before = await storedMessages(conversationId);
    const response = await chat(
      client.request('/api/chat', { body: { conversationId: other, message: { id: before[0].id, text: 'hijack' } } }),
    );
    expect(response.status).toBe(200);
    await response.text();
    expect(await storedMessages(conversationId)).toEqual(before);
    const [asked] = await storedMessages(other);
    expect(asked).toMatchObject({ role: 'user', content: 'hijack' });
    expect(asked.id).not.toBe(before[0].id);
  });

  it('editing an assistant message is refused with 409', async () => {
    const [, answer] = await storedMessages(conversationId);
    const response = await chat(client.request('/api/chat', { body: { conversationId, message: { id: answer.id, text: 'no' } } }));
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe('not_a_user_message');
  });

  it('the size limit is configurable', async () => {
    setEnv({ MAX_MESSAGE_CHARS: '10' });
    try {
      const response = await chat(client.request('/api/chat', { body: { conversationId, message: { text: 'eleven chars' } } }));
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toContain('10 characters');
    } finally {
      setEnv({ MAX_MESSAGE_CHARS: undefined });
    }
  });

  it('a request without a session cookie is a 401', async () => {
    const response = await chat(new Request('http://localhost/api/chat', { method: 'POST', body: '{}' }));
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('no_session');
  });

  it('an empty title is refused on rename', async () => {
    const response = await renameConversation(
      client.request(`/api/conversations/${conversationId}`, { method: 'PATCH', body: { title: ' ' } }),
      params({ id: conversationId }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain('title');
  });
});

/**
 * The probe's findings, one row each: every one was a 500, an empty 405, a 2xx that accepted what it
 * should refuse, or a write left behind. Each must be a 4xx JSON error naming what is wrong, with
 * nothing written for the user.
 */
type Subject = { client: Client; conversationId: string; factId: string };
type Probe = { name: string; call: (s: Subject) => Promise<Response>; status: number; code: string; mentions: string };

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\uD800b';
const send = (s: Subject, path: string, method: string, body: unknown) => s.client.request(path, { method, body });
const importing = (s: Subject, body: unknown) => importConversation(send(s, '/api/import', 'POST', body));
const oneMessage = (extra: Record<string, unknown>) => ({ messages: [{ role: 'user', content: 'hello', ...extra }] });
const nested = (depth: number): unknown => Array.from({ length: depth }).reduce<unknown>((inner) => ({ a: inner }), 'deep');
const withCookie = (cookie: string) => new Request('http://localhost/api/facts', { headers: { cookie } });

const probes: Probe[] = [
  // NUL and lone surrogates: Postgres refused them with a 500 (and the whole SQL was logged).
  {
    name: 'NUL in chat text',
    call: (s) => chat(send(s, '/api/chat', 'POST', { conversationId: s.conversationId, message: { text: NUL } })),
    status: 400,
    code: 'invalid_text',
    mentions: 'message.text',
  },
  {
    name: 'a lone surrogate in chat text',
    call: (s) => chat(send(s, '/api/chat', 'POST', { conversationId: s.conversationId, message: { text: LONE_SURROGATE } })),
    status: 400,
    code: 'invalid_text',
    mentions: 'message.text',
  },
  {
    name: 'NUL in a new title',
    call: (s) => createConversation(send(s, '/api/conversations', 'POST', { title: NUL })),
    status: 400,
    code: 'invalid_text',
    mentions: 'title',
  },
  {
    name: 'NUL in a rename',
    call: (s) =>
      renameConversation(send(s, `/api/conversations/${s.conversationId}`, 'PATCH', { title: NUL }), params({ id: s.conversationId })),
    status: 400,
    code: 'invalid_text',
    mentions: 'title',
  },
  {
    name: 'NUL in a summary',
    call: (s) =>
      editSummary(send(s, `/api/conversations/${s.conversationId}/summary`, 'PUT', { content: NUL }), params({ id: s.conversationId })),
    status: 400,
    code: 'invalid_text',
    mentions: 'content',
  },
  {
    name: 'NUL in a new fact',
    call: (s) => addFact(send(s, '/api/facts', 'POST', { content: NUL })),
    status: 400,
    code: 'invalid_text',
    mentions: 'content',
  },
  {
    name: 'NUL in a fact edit',
    call: (s) => editFact(send(s, `/api/facts/${s.factId}`, 'PATCH', { content: NUL }), params({ id: s.factId })),
    status: 400,
    code: 'invalid_text',
    mentions: 'content',
  },
  {
    name: 'NUL in a search',
    call: (s) => listFacts(s.client.request('/api/facts?q=%00')),
    status: 400,
    code: 'invalid_text',
    mentions: 'q',
  },
  {
    name: 'NUL in an episode search',
    call: (s) => listEpisodes(s.client.request('/api/episodes?q=a%00b')),
    status: 400,
    code: 'invalid_text',
    mentions: 'q',
  },
  // Imports: a 500 that left an empty conversation behind.
  {
    name: 'NUL in imported text',
    call: (s) =>
      importing(s, {
        messages: [
          { role: 'user', content: 'fine' },
          { role: 'assistant', content: NUL },
        ],
      }),
    status: 400,
    code: 'invalid_text',
    mentions: 'messages.1.content',
  },
  {
    name: 'NUL in an import title',
    call: (s) => importing(s, { title: NUL, ...oneMessage({}) }),
    status: 400,
    code: 'invalid_text',
    mentions: 'title',
  },
  {
    name: 'NUL in import metadata',
    call: (s) => importing(s, oneMessage({ metadata: { note: NUL } })),
    status: 400,
    code: 'invalid_text',
    mentions: 'messages.0.metadata.note',
  },
  {
    name: 'NUL in an import metadata key',
    call: (s) => importing(s, oneMessage({ metadata: { [NUL]: 1 } })),
    status: 400,
    code: 'invalid_text',
    mentions: 'messages.0.metadata',
  },
  {
    name: 'an import dated year 0000',
    call: (s) => importing(s, oneMessage({ createdAt: '0000-01-01T00:00:00Z' })),
    status: 400,
    code: 'out_of_range',
    mentions: 'messages.0.createdAt',
  },
  {
    name: 'an import date before year 1 in UTC',
    call: (s) => importing(s, oneMessage({ createdAt: '0001-01-01T00:30:00+01:00' })),
    status: 400,
    code: 'out_of_range',
    mentions: 'messages.0.createdAt',
  },
  // Free-form metadata 3,000 levels deep was accepted; now 8 levels at most.
  {
    name: 'import metadata 3,000 deep',
    call: (s) => importing(s, oneMessage({ metadata: nested(3000) as object })),
    status: 400,
    code: 'too_deep',
    mentions: 'messages.0.metadata',
  },
  {
    name: 'import metadata 9 deep',
    call: (s) => importing(s, oneMessage({ metadata: nested(9) as object })),
    status: 400,
    code: 'too_deep',
    mentions: '8 levels',
  },
  {
    name: 'import metadata over 16 KiB',
    call: (s) => importing(s, oneMessage({ metadata: { note: 'x'.repeat(17_000) } })),
    status: 400,
    code: 'too_large',
    mentions: '16384 bytes',
  },
  // Unknown fields were silently dropped.
  {
    name: 'isAdmin on chat',
    call: (s) => chat(send(s, '/api/chat', 'POST', { conversationId: s.conversationId, message: { text: 'hi' }, isAdmin: true })),
    status: 400,
    code: 'invalid',
    mentions: 'unknown field "isAdmin"',
  },
  {
    name: 'userId in a chat message',
    call: (s) =>
      chat(send(s, '/api/chat', 'POST', { conversationId: s.conversationId, message: { text: 'hi', userId: crypto.randomUUID() } })),
    status: 400,
    code: 'invalid',
    mentions: 'message: unknown field "userId"',
  },
  {
    name: 'userId on a new conversation',
    call: (s) => createConversation(send(s, '/api/conversations', 'POST', { title: 'x', userId: crypto.randomUUID() })),
    status: 400,
    code: 'invalid',
    mentions: 'unknown field "userId"',
  },
  {
    name: 'isAdmin on a rename',
    call: (s) =>
      renameConversation(
        send(s, `/api/conversations/${s.conversationId}`, 'PATCH', { title: 'x', isAdmin: true }),
        params({ id: s.conversationId }),
      ),
    status: 400,
    code: 'invalid',
    mentions: '"isAdmin"',
  },
  {
    name: 'isAdmin on a summary edit',
    call: (s) =>
      editSummary(
        send(s, `/api/conversations/${s.conversationId}/summary`, 'PUT', { content: 'x', isAdmin: true }),
        params({ id: s.conversationId }),
      ),
    status: 400,
    code: 'invalid',
    mentions: '"isAdmin"',
  },
  {
    name: 'userId on a fact edit',
    call: (s) =>
      editFact(send(s, `/api/facts/${s.factId}`, 'PATCH', { content: 'x', userId: crypto.randomUUID() }), params({ id: s.factId })),
    status: 400,
    code: 'invalid',
    mentions: '"userId"',
  },
  {
    name: 'userId on an import',
    call: (s) => importing(s, { ...oneMessage({}), userId: crypto.randomUUID() }),
    status: 400,
    code: 'invalid',
    mentions: '"userId"',
  },
  {
    name: 'isAdmin on an imported message',
    call: (s) => importing(s, oneMessage({ isAdmin: true })),
    status: 400,
    code: 'invalid',
    mentions: 'messages.0: unknown field "isAdmin"',
  },
  {
    name: 'a body on forget-everything',
    call: (s) => forgetEverything(send(s, '/api/memory', 'DELETE', { isAdmin: true })),
    status: 400,
    code: 'invalid',
    mentions: 'unknown field "isAdmin" (allowed: none)',
  },
  // A 10 MB body was read whole and reported as invalid JSON.
  {
    name: 'a 10 MB chat body without Content-Length',
    call: (s) => chat(send(s, '/api/chat', 'POST', { conversationId: s.conversationId, message: { text: 'x'.repeat(10_000_000) } })),
    status: 413,
    code: 'too_large',
    mentions: '1048576 bytes',
  },
  {
    name: 'a 10 MB import body announced by Content-Length',
    call: (s) =>
      importConversation(
        new Request('http://localhost/api/import', {
          method: 'POST',
          headers: { cookie: s.client.cookie, 'content-length': '10000000' },
          body: '{}',
        }),
      ),
    status: 413,
    code: 'too_large',
    mentions: '8388608 bytes',
  },
  {
    name: 'a body that is not UTF-8',
    call: (s) =>
      addFact(
        new Request('http://localhost/api/facts', {
          method: 'POST',
          headers: { cookie: s.client.cookie },
          body: new Uint8Array([0x7b, 0xff, 0x7d]),
        }),
      ),
    status: 400,
    code: 'invalid_json',
    mentions: 'UTF-8',
  },
  // A malformed session cookie threw in decodeURIComponent: a 500.
  {
    name: 'a malformed session cookie alone',
    call: () =>
      forgetEverything(
        new Request('http://localhost/api/memory', { method: 'DELETE', headers: { cookie: 'better-auth.session_token=%E0%A4%A' } }),
      ),
    status: 401,
    code: 'no_session',
    mentions: 'No session',
  },
  // Unsupported methods got an empty 405.
  {
    name: 'PUT on chat',
    call: async (s) => chatPut(s.client.request('/api/chat', { method: 'PUT' })),
    status: 405,
    code: 'method_not_allowed',
    mentions: 'allowed: OPTIONS, POST',
  },
];

describe("the probe's bad inputs: a 4xx JSON error naming the field, and nothing written", () => {
  let subject: Subject;

  beforeEach(async () => {
    const client = await newClient();
    const conversation = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation
      .id;
    const fact = (await (await addFact(client.request('/api/facts', { body: { content: 'I live in Oslo.' } }))).json()).fact.id;
    subject = { client, conversationId: conversation, factId: fact };
  });

  it.each(probes)('$name → $status $code', async ({ call, status, code, mentions }) => {
    const before = await fingerprint([subject.client.user.id]);
    const response = await call(subject);
    expect(response.status).toBe(status);
    const { error } = await response.json();
    expect(error.code).toBe(code);
    expect(error.message).toContain(mentions);
    expect(await fingerprint([subject.client.user.id])).toEqual(before);
  });

  it('a 405 names the allowed methods in Allow, and OPTIONS lists them', async () => {
    expect(chatPut(subject.client.request('/api/chat', { method: 'PUT' })).headers.get('allow')).toBe('OPTIONS, POST');
    const options = chatOptions(subject.client.request('/api/chat', { method: 'OPTIONS' }));
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('OPTIONS, POST');
  });

  it("a malformed session cookie beside the browser's own is skipped: the request is still that guest", async () => {
    const response = await listFacts(withCookie(`memlens_other=%E0%A4%A; ${subject.client.cookie}`));
    expect(response.status).toBe(200);
    expect((await response.json()).facts.map((f: { id: string }) => f.id)).toEqual([subject.factId]);
  });

  it('an import is all or nothing: a message Postgres refuses leaves no conversation', async () => {
    const before = await fingerprint([subject.client.user.id]);
    const response = await importing(subject, {
      title: 'half',
      messages: [
        { role: 'user', content: 'fine' },
        { role: 'assistant', content: 'x', createdAt: '0000-06-01T00:00:00Z' },
      ],
    });
    expect(response.status).toBe(400);
    expect(await fingerprint([subject.client.user.id])).toEqual(before);
  });

  it('a body of thousands of unknown fields or bad items gets a short 400: five names, how many more, ten issues at most', async () => {
    const before = await fingerprint([subject.client.user.id]);
    const fields = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`isAdmin${i}`.padEnd(40, 'x'), true]));
    const manyFields = await addFact(
      send(subject, '/api/facts', 'POST', { content: 'I live in Oslo', ...fields, ['k'.repeat(50_000)]: 1 }),
    );
    const manyItems = await importing(subject, {
      messages: Array.from({ length: 5_000 }, (_, i) => ({ role: 'user', content: `m${i}`, [`extra${'y'.repeat(60)}`]: i })),
    });

    const fieldsText = await manyFields.text();
    expect(manyFields.status).toBe(400);
    expect(fieldsText.length).toBeLessThan(2_000);
    const { error } = JSON.parse(fieldsText);
    const firstFive = Object.keys(fields)
      .slice(0, 5)
      .map((name) => JSON.stringify(name));
    expect(error.message).toBe(`body: unknown fields ${firstFive.join(', ')} and 19996 more (allowed: content, slot)`);
    expect(error.details).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: expect.any(Array), unknownFields: 20_001 })]);
    expect(error.details[0].keys).toHaveLength(5);

    const itemsText = await manyItems.text();
    expect(manyItems.status).toBe(400);
    expect(itemsText.length).toBeLessThan(5_000);
    const items = JSON.parse(itemsText).error;
    expect(items.message).toMatch(/^messages\.0: unknown field "extrayyy/);
    expect(items.details).toHaveLength(10);
    expect(await fingerprint([subject.client.user.id])).toEqual(before);
  });

  it('the body limits are configurable', async () => {
    setEnv({ MAX_BODY_BYTES: '100' });
    try {
      const response = await addFact(send(subject, '/api/facts', 'POST', { content: 'x'.repeat(200) }));
      expect(response.status).toBe(413);
      expect((await response.json()).error.message).toContain('100 bytes');
    } finally {
      setEnv({ MAX_BODY_BYTES: undefined });
    }
  });
});

describe("the probe's bad inputs to staff and auth routes", () => {
  it('NUL in a reason, unknown fields, NUL in a search and a year-0 audit filter are 400s that write nothing', async () => {
    const staff = await member({ staff: true });
    const owner = await newClient();
    const fact = (await (await addFact(owner.request('/api/facts', { body: { content: 'I live in Oslo.' } }))).json()).fact.id;
    const [{ id: staffId }] = await getSql()`select id from users where email = ${staff.email}`;
    // The first staff request makes the listed email staff (an audited role change): before the fingerprint.
    expect((await staffUsers(staff.request('/api/staff/users?q=nobody'))).status).toBe(200);
    const before = await fingerprint([owner.user.id, staffId]);
    const calls = [
      () =>
        staffEditFact(
          staff.request(`/api/staff/facts/${fact}`, { method: 'PATCH', body: { content: 'x', reason: `because ${NUL}` } }),
          params({ id: fact }),
        ),
      () =>
        staffEditFact(
          staff.request(`/api/staff/facts/${fact}`, { method: 'PATCH', body: { content: 'x', reason: 'because', userId: owner.user.id } }),
          params({ id: fact }),
        ),
      () =>
        staffDeleteFact(
          staff.request(`/api/staff/facts/${fact}`, { method: 'DELETE', body: { reason: 'because', isAdmin: true } }),
          params({ id: fact }),
        ),
      () => staffUsers(staff.request('/api/staff/users?q=%00')),
      () => staffAudit(staff.request('/api/staff/audit?from=0000-01-01')),
      () => staffAudit(staff.request('/api/staff/audit?action=a%00b')),
    ];
    const answers = [];
    for (const call of calls) {
      const response = await call();
      answers.push([response.status, (await response.json()).error?.message]);
    }
    expect(answers).toEqual([
      [400, expect.stringContaining('reason: must not contain NUL')],
      [400, expect.stringContaining('unknown field "userId"')],
      [400, expect.stringContaining('unknown field "isAdmin"')],
      [400, expect.stringContaining('q: must not contain NUL')],
      [400, expect.stringContaining('from: must be a time from year 0001 to 9999')],
      [400, expect.stringContaining('action: must not contain NUL')],
    ]);
    expect(await fingerprint([owner.user.id, staffId])).toEqual(before);
  });

  it('NUL in a sign-up name is a 400 before better-auth tries to store it (it was a failed insert with its SQL logged)', async () => {
    const address = email();
    const response = await browser().auth('sign-up/email', { email: address, password: 'a fine password 1', name: NUL });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'invalid_text', message: expect.stringContaining('name') });
    expect(await getSql()`select id from auth_users where email = ${address}`).toHaveLength(0);
  });
});

describe('every route file answers every HTTP method', () => {
  const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
  const files = fs.globSync('app/api/**/route.ts').sort();

  // Called signed out, a route's own handler answers 401 (or better-auth's 404) and writes nothing; one it lacks, 405.
  it.each(files)('%s: a 405 JSON error with Allow for each method it lacks', async (file) => {
    const module: Record<string, (request: Request, context: unknown) => Response | Promise<Response>> = await import(path.resolve(file));
    const answers = new Map<string, Response>();
    for (const method of METHODS) {
      if (method === 'HEAD' && module.GET && !module.HEAD) continue; // Next answers HEAD from GET.
      expect(module[method], `${file} exports ${method}`).toBeTypeOf('function');
      answers.set(
        method,
        await module[method](new Request('http://localhost/api/x', { method }), {
          params: Promise.resolve({ id: crypto.randomUUID(), all: ['x'] }),
        }),
      );
    }
    const own = [...answers].filter(([method, response]) => method !== 'OPTIONS' && response.status !== 405).map(([method]) => method);
    const allow = METHODS.filter(
      (method) => own.includes(method) || method === 'OPTIONS' || (method === 'HEAD' && own.includes('GET')),
    ).join(', ');
    expect(answers.get('OPTIONS')!.status).toBe(204);
    expect(answers.get('OPTIONS')!.headers.get('allow')).toBe(allow);
    for (const [method, response] of answers) {
      if (response.status !== 405) continue;
      expect(response.headers.get('allow'), method).toBe(allow);
      expect((await response.json()).error).toMatchObject({
        code: 'method_not_allowed',
        message: `${method} is not allowed here; allowed: ${allow}.`,
      });
    }
  });
});
