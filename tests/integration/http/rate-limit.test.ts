import { drizzle } from 'drizzle-orm/postgres-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { POST as addFact } from '@/app/api/facts/route';
import { POST as importConversation } from '@/app/api/import/route';
import { GET as replayGet, POST as replayPost } from '@/app/api/messages/[id]/replay/route';
import { GET as staffReplayGet, POST as staffReplayPost } from '@/app/api/staff/messages/[id]/replay/route';
import { openPostgres } from '@/db/postgres-url';
import * as schema from '@/db/schema';
import { consumeOrRefuse, createRateLimiter } from '@/lib/rate-limit';
import { answered } from '@/tests/support/answered';
import { type Client, countRows, newClient, params, readChunks, setEnv, storedMessages } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { passTime } from '@/tests/support/clock';
import { importFinished } from '@/tests/support/imports';

// tests/support/database-env.ts lifts the limits for every other file; each case here sets its own.
afterEach(() => {
  vi.useRealTimers();
  setEnv({
    CHAT_RATE_LIMIT: '1000000',
    CHAT_RATE_WINDOW_SECONDS: undefined,
    IMPORT_RATE_LIMIT: '1000000',
    IMPORT_RATE_WINDOW_SECONDS: undefined,
    REPLAY_RATE_LIMIT: '1000000',
    REPLAY_RATE_WINDOW_SECONDS: undefined,
    CONVERSATION_RATE_LIMIT: '1000000',
    CONVERSATION_RATE_WINDOW_SECONDS: undefined,
    FACT_RATE_LIMIT: '1000000',
    FACT_RATE_WINDOW_SECONDS: undefined,
  });
});

async function newConversation(client: Client): Promise<string> {
  const created = await createConversation(client.request('/api/conversations', { method: 'POST' }));
  return (await created.json()).conversation.id;
}

function sendChat(client: Client, conversationId: string, text = 'Hello there') {
  return chat(client.request('/api/chat', { body: { conversationId, message: { text } } }));
}

function sendImport(client: Client) {
  const messages = [
    { role: 'user', content: 'I live in Lisbon.' },
    { role: 'assistant', content: 'Noted.' },
  ];
  return importConversation(client.request('/api/import', { body: { title: 'Imported', messages } }));
}

/** A refusal: 429, a whole number of seconds to wait, and the app's JSON error. */
async function expectRateLimited(response: Response): Promise<number> {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  const body = await response.json();
  expect(body.error.code).toBe('rate_limited');
  expect(body.error.message).toMatch(/Try again in \d+ seconds/);
  return retryAfter;
}

describe('per-user rate limits on POST /api/chat', () => {
  it('lets exactly the limit through among concurrent chats, writes nothing for the rest, and leaves other users alone', async () => {
    setEnv({ CHAT_RATE_LIMIT: '5', CHAT_RATE_WINDOW_SECONDS: '60' });
    const alice = await newClient();
    // One conversation per request, so the refused ones can be checked to be empty.
    const conversationIds = await Promise.all(Array.from({ length: 8 }, () => newConversation(alice)));
    const responses = await Promise.all(conversationIds.map((id) => sendChat(alice, id)));

    const accepted = responses.flatMap((response, i) => (response.status === 200 ? [conversationIds[i]] : []));
    const refused = responses.flatMap((response, i) => (response.status === 200 ? [] : [{ response, conversationId: conversationIds[i] }]));
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(3);
    for (const response of responses.filter((r) => r.status === 200)) await readChunks(response);
    for (const { response, conversationId } of refused) {
      await expectRateLimited(response);
      expect(await storedMessages(conversationId)).toEqual([]);
    }
    for (const conversationId of accepted) {
      expect((await storedMessages(conversationId)).map((m) => m.role)).toEqual(['user', 'assistant']);
    }
    expect(await countRows('messages', alice.user.id)).toBe(10);

    const bob = await newClient();
    const bobs = await sendChat(bob, await newConversation(bob));
    expect(bobs.status).toBe(200);
    await readChunks(bobs);
  });

  it('accepts again once the window named by Retry-After has passed', async () => {
    setEnv({ CHAT_RATE_LIMIT: '1', CHAT_RATE_WINDOW_SECONDS: '2' });
    const client = await newClient();
    const conversationId = await newConversation(client);
    // Sent together, so both fall inside the same short window however slow the machine is.
    const [first, second] = await Promise.all([sendChat(client, conversationId, 'One'), sendChat(client, conversationId, 'Two')]);
    const [ok, refused] = first.status === 200 ? [first, second] : [second, first];
    expect(ok.status).toBe(200);
    await readChunks(ok);
    const retryAfter = await expectRateLimited(refused);
    expect(retryAfter).toBeLessThanOrEqual(2);

    passTime(retryAfter * 1000 + 100);
    const again = await sendChat(client, conversationId, 'Three');
    expect(again.status).toBe(200);
    await readChunks(again);
    expect((await storedMessages(conversationId)).filter((m) => m.role === 'user')).toHaveLength(2);
  });
});

describe('per-user rate limits on POST /api/import', () => {
  it('lets exactly the limit through among concurrent imports, queues one and refuses the rest, and leaves other users alone', async () => {
    setEnv({ IMPORT_RATE_LIMIT: '5', IMPORT_RATE_WINDOW_SECONDS: '60' });
    const alice = await newClient();
    const responses = await Promise.all(Array.from({ length: 8 }, () => sendImport(alice)));

    // Five within the limit: one is queued, the other four meet the import in progress (one at a time per user).
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(4);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3);
    for (const response of refused) await expectRateLimited(response);
    const { import: queued } = await responses.find((r) => r.status === 202)!.json();
    expect((await importFinished(alice, queued.id)).status).toBe('done');
    expect(await countRows('conversations', alice.user.id)).toBe(1);
    expect(await countRows('messages', alice.user.id)).toBe(2);

    const bob = await newClient();
    expect((await sendImport(bob)).status).toBe(202);
  });

  it('accepts again once the window has passed, and a limit of 0 turns the limit off', async () => {
    setEnv({ IMPORT_RATE_LIMIT: '1', IMPORT_RATE_WINDOW_SECONDS: '2' });
    const client = await newClient();
    const [first, second] = await Promise.all([sendImport(client), sendImport(client)]);
    expect([first.status, second.status].sort()).toEqual([202, 429]);
    const retryAfter = await expectRateLimited(first.status === 429 ? first : second);
    await importFinished(client, (await (first.status === 202 ? first : second).json()).import.id);

    passTime(retryAfter * 1000 + 100);
    const again = await sendImport(client);
    expect(again.status).toBe(202);
    await importFinished(client, (await again.json()).import.id);

    setEnv({ IMPORT_RATE_LIMIT: '0' });
    for (let i = 0; i < 3; i++) {
      const unlimited = await sendImport(client);
      expect(unlimited.status).toBe(202);
      await importFinished(client, (await unlimited.json()).import.id);
    }
  });
});

describe('per-user rate limits on new conversations and facts added by hand', () => {
  it.each([
    [
      'POST /api/conversations',
      'CONVERSATION',
      'conversations',
      (client: Client) => createConversation(client.request('/api/conversations', { method: 'POST' })),
      /^Too many new conversations/,
    ],
    [
      'POST /api/facts',
      'FACT',
      'facts',
      (client: Client, i: number) => addFact(client.request('/api/facts', { body: { content: `I own ${i} bicycles` } })),
      /^Too many facts added/,
    ],
  ] as const)(
    '%s: exactly the limit among concurrent requests, nothing written for the rest, other users untouched, 0 = no limit',
    async (_, setting, table, create, message) => {
      setEnv({ [`${setting}_RATE_LIMIT`]: '3', [`${setting}_RATE_WINDOW_SECONDS`]: '60' });
      const alice = await newClient();
      const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => create(alice, i)));
      expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429, 429]);
      for (const response of responses.filter((r) => r.status === 429)) {
        expect((await response.clone().json()).error.message).toMatch(message);
        await expectRateLimited(response);
      }
      expect(await countRows(table, alice.user.id)).toBe(3);

      const bob = await newClient();
      expect((await create(bob, 7)).status).toBe(201);

      setEnv({ [`${setting}_RATE_LIMIT`]: '0' });
      expect((await create(alice, 8)).status).toBe(201);
      expect(await countRows(table, alice.user.id)).toBe(4);
    },
  );
});

describe('per-user rate limits on replay', () => {
  it('counts GET and POST replays together per user, refuses past the limit with Retry-After, and counts staff replays on their own', async () => {
    const alice = await newClient();
    const conversationId = await newConversation(alice);
    const chunks = await readChunks(await sendChat(alice, conversationId, 'I live in Lisbon.'));
    const replyId = chunks.find((c) => c.type === 'start')!.messageId as string;
    const replay = (client: { request: Client['request'] }, method: 'GET' | 'POST', staff = false) => {
      const path = `/api/${staff ? 'staff/' : ''}messages/${replyId}/replay`;
      const request = client.request(path, method === 'POST' ? { method, body: { mode: 'stored' } } : {});
      const handler = staff ? (method === 'GET' ? staffReplayGet : staffReplayPost) : method === 'GET' ? replayGet : replayPost;
      return handler(request, params({ id: replyId }));
    };
    const staff = await member({ staff: true });
    setEnv({ REPLAY_RATE_LIMIT: '3', REPLAY_RATE_WINDOW_SECONDS: '60' });

    const responses = await Promise.all((['GET', 'POST', 'GET', 'POST', 'GET'] as const).map((method) => replay(alice, method)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    for (const response of responses.filter((r) => r.status === 429)) {
      await expectRateLimited(response);
    }
    expect((await replay(alice, 'POST')).status).toBe(429);

    // Staff replays count against the staff member, not the user whose turn it is.
    const staffResponses = await Promise.all((['GET', 'POST', 'POST', 'GET'] as const).map((method) => replay(staff, method, true)));
    expect(staffResponses.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
    const refused = staffResponses.find((r) => r.status === 429)!;
    expect((await refused.clone().json()).error.message).toMatch(/^Too many replays/);
    await expectRateLimited(refused);

    setEnv({ REPLAY_RATE_LIMIT: '0' });
    expect((await replay(alice, 'GET')).status).toBe(200);
  });
});

describe('the limiter across app instances', () => {
  it('shares one count between two limiters on separate connection pools, as two processes would', async () => {
    const otherProcess = openPostgres(process.env.DATABASE_URL!, { max: 4, onnotice: () => {} });
    try {
      const limit = { points: 5, windowSeconds: 60 };
      const here = createRateLimiter('chat', limit);
      const there = createRateLimiter('chat', limit, drizzle(otherProcess, { schema }));
      const userId = crypto.randomUUID();

      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => consumeOrRefuse(i % 2 === 0 ? here : there, 'chat', limit, userId)),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
      const rejections = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(rejections).toHaveLength(3);
      for (const reason of rejections) expect(answered(reason)).toMatchObject({ status: 429, code: 'rate_limited' });
    } finally {
      await otherProcess.end({ timeout: 5 });
    }
  });
});
