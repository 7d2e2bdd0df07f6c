import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { getSql } from '@/db/client';
import { parseChunks } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { fingerprint } from '@/tests/support/fingerprint';
import { importTurns, postTurnSettled } from '@/tests/support/memory';
import { type Browser, type Case, chatRoutes, type Ids, ownerWithData, staffRoutes, userRoutes } from '@/tests/support/routes';

/**
 * The isolation probe as a test: user B calls every route that takes an id with user A's ids, with
 * every method and plausible bodies. B gets 404, word for word what an id that exists nowhere gets
 * (staff routes: 403, likewise), and nothing of A's or B's changes (B may only gain audit entries).
 */

/** B's fingerprint without the audit log: B may log their own attempts. */
async function ownRows(userId: string): Promise<Record<string, string>> {
  const { audit_log: _audit, ...rest } = await fingerprint([userId]);
  return rest;
}

/** A with something in every kind of row: a deleted fact adds redactions, its delete an audit entry. */
async function richOwner(owner: Browser & { email: string }): Promise<Ids> {
  const ids = await ownerWithData(owner);
  await importTurns(ids.user, [['My cat is called Miso. I work as a nurse.', 'Noted.']]);
  const [nurse] = await getSql()`select id from facts where user_id = ${ids.user} and content ilike '%nurse%'`;
  const deleteFact = userRoutes.find((c) => c.route === 'DELETE /api/facts/:id')!;
  expect((await deleteFact.call(owner, { ...ids, fact: nurse.id })).status).toBe(200);
  await postTurnSettled(ids.user);
  return ids;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gu;

/** Ids of the same shapes that belong to no one. */
function absentIds(): Ids {
  const id = () => crypto.randomUUID();
  return {
    conversation: id(),
    message: id(),
    reply: id(),
    fact: id(),
    episode: id(),
    job: id(),
    audit: '987654321987',
    user: id(),
    import: id(),
    deadImport: id(),
    change: id(),
  };
}

/** A response with the ids it was asked about replaced by their names, to compare two answers. */
async function masked(response: Response, ids: Ids): Promise<{ status: number; body: string }> {
  let body = await response.text();
  // Longest first: the audit entry's numeric id can be part of a uuid.
  for (const [name, value] of Object.entries(ids).toSorted(([, a], [, b]) => b.length - a.length))
    body = body.replaceAll(value, `<${name}>`);
  return { status: response.status, body };
}

/** Every call of a case: its usual body, then each other plausible one. */
function callsOf(cases: Case[]): Array<{ label: string; call: (b: Browser, ids: Ids) => Promise<Response> }> {
  return cases.flatMap(({ route, call, bodies = [] }) => [
    { label: route, call: (b: Browser, ids: Ids) => call(b, ids) },
    ...bodies.map((body) => ({ label: `${route} ${JSON.stringify(body)}`, call: (b: Browser, ids: Ids) => call(b, ids, body) })),
  ]);
}

/** Every method every route file under app/api exports, where the path takes an id or the body does (chat). */
function exportedIdRoutes(): string[] {
  const root = path.resolve(import.meta.dirname, '../../../app');
  const files = readdirSync(path.join(root, 'api'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('route.ts'));
  return files.flatMap((file) => {
    const url = `/api/${path.dirname(file).split(path.sep).join('/')}`.replace(/\[(\w+)\]/g, ':$1');
    if (!url.includes(':id') && url !== '/api/chat') return [];
    const methods = [...readFileSync(path.join(root, 'api', file), 'utf8').matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map(
      (m) => m[1],
    );
    return methods.map((method) => `${method} ${url}`);
  });
}

const tableRoutes = (cases: Case[]) => cases.map((c) => c.route.replace(/ \(.*\)$/, ''));

describe("user B with user A's ids", () => {
  it('the table holds every method of every route that takes an id', () => {
    const table = new Set(tableRoutes([...userRoutes, ...chatRoutes, ...staffRoutes]));
    expect(new Set(exportedIdRoutes())).toEqual(table);
  });

  it(`${callsOf([...userRoutes, ...chatRoutes]).length} calls on user routes: 404 as for no such id, and A and B unchanged`, async () => {
    const [a, b] = [await member(), await member()];
    const ids = await richOwner(a);
    const own = await ownerWithData(b);
    const beforeA = await fingerprint([ids.user]);
    const beforeB = await ownRows(own.user);
    for (const table of [
      'conversations',
      'messages',
      'facts',
      'summaries',
      'episodes',
      'memory_sources',
      'message_redactions',
      'turn_records',
      'jobs',
      'audit_log',
    ]) {
      expect(parseInt(beforeA[table] ?? '0', 10), `A has ${table} to protect`).toBeGreaterThan(0);
    }

    const absent = absentIds();
    for (const { label, call } of callsOf([...userRoutes, ...chatRoutes])) {
      const answer = await masked(await call(b, ids), ids);
      expect(answer.status, `${label}: B with A's ids`).toBe(404);
      expect(answer, `${label}: B with A's ids answers as for ids of no one`).toEqual(await masked(await call(b, absent), absent));
    }

    await Promise.all([postTurnSettled(ids.user), postTurnSettled(own.user)]);
    expect(await fingerprint([ids.user]), "A's rows").toEqual(beforeA);
    expect(await ownRows(own.user), "B's rows").toEqual(beforeB);
  });

  // A question's id names a user message of the conversation to edit; any other id (unused, or
  // another user's) is a new question, stored under an id the server picks. So A's message id gets
  // word for word the answer an id of no one gets, and B cannot learn that A's id exists.
  it("A's message id as a question's id in B's own conversation: answered exactly as an unused id, and A unchanged", async () => {
    const [a, b] = [await member(), await member()];
    const ids = await richOwner(a);
    const own = await ownerWithData(b);
    const beforeA = await fingerprint([ids.user]);
    const ask = async (messageId: string) => {
      const response = await chat(
        b.request('/api/chat', { body: { conversationId: own.conversation, message: { id: messageId, text: 'I live in Bergen.' } } }),
      );
      const chunks = parseChunks(await response.text());
      const start = chunks.find((c) => c.type === 'start')!;
      // The answer's form (its timings and recall vary from turn to turn), with ids as names.
      const form = JSON.stringify({ status: response.status, start, types: chunks.map((c) => c.type) }).replaceAll(UUID, '<id>');
      return { start, form };
    };
    const unused = crypto.randomUUID();
    const withA = await ask(ids.message);
    const withNoOne = await ask(unused);
    await postTurnSettled(own.user);
    expect(JSON.parse(withA.form).status, "status for A's message id").toBe(200);
    expect(withA.form, 'the same answer as for an unused id').toBe(withNoOne.form);
    // Neither id is taken: each question is stored under an id of the server's.
    expect(withA.start.messageMetadata.userMessageId).not.toBe(ids.message);
    expect(withNoOne.start.messageMetadata.userMessageId).not.toBe(unused);
    expect(await getSql()`select id from messages where id in ${getSql()([ids.message, unused])} and user_id = ${own.user}`).toHaveLength(
      0,
    );
    expect(await fingerprint([ids.user]), "A's rows").toEqual(beforeA);
  });

  it(`${callsOf(staffRoutes).length} calls on staff routes: a user gets 403 as for no such id, and A and B unchanged`, async () => {
    const [a, b] = [await member(), await member()];
    const ids = await richOwner(a);
    const beforeA = await fingerprint([ids.user]);
    const [{ id: bUser }] = await getSql()`select id from users where email = ${b.email}`;
    const beforeB = await ownRows(bUser);
    const absent = absentIds();
    for (const { label, call } of callsOf(staffRoutes)) {
      const answer = await masked(await call(b, ids), ids);
      expect(answer.status, `${label}: a user with A's ids`).toBe(403);
      expect(answer, `${label}: answers as for ids of no one`).toEqual(await masked(await call(b, absent), absent));
    }
    expect(await fingerprint([ids.user]), "A's rows").toEqual(beforeA);
    expect(await ownRows(bUser), "B's rows").toEqual(beforeB);
  });
});
