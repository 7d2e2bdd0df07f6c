import { formatWithOptions } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { getDb, getSql } from '@/db/client';
import { users } from '@/db/schema';
import { route } from '@/lib/http';
import { logError, logFromLibrary } from '@/lib/log';

// What a user wrote, sent as a query parameter: it must never reach the log.
const MARKER = 'my-secret-diary-entry-7f3a';
const databasePassword = () => decodeURIComponent(new URL(process.env.DATABASE_URL!).password);

let consoleError: MockInstance<typeof console.error>;
/** Everything printed to the error console, as Node would have written it. */
const printed = () => consoleError.mock.calls.map((args) => formatWithOptions({ colors: false }, ...args)).join('\n');

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  consoleError.mockRestore();
  delete process.env.MEMLENS_DEBUG;
});

/** A route whose database query fails on the marker (not a uuid), as a bad lookup by id would. */
const failingRoute = route(async (request: Request) => {
  const wanted = new URL(request.url).searchParams.get('q')!;
  await getDb().select().from(users).where(eq(users.id, wanted));
  return Response.json({ ok: true });
});

const failingRequest = () => new Request(`http://localhost/api/lookup?q=${MARKER}`, { headers: { 'x-request-id': 'req-42' } });

describe('error logs', () => {
  it('a route whose query fails logs the kind of error and the request, never the parameters or the database password', async () => {
    const response = await failingRoute(failingRequest());
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain(MARKER);

    const output = printed();
    expect(output).toContain('unhandled error in route');
    expect(output).toContain('"requestId":"req-42"');
    expect(output).toContain('"path":"/api/lookup"');
    expect(output).toContain('DrizzleQueryError');
    // The cause is Postgres's own error: its SQLSTATE and message, the value taken out.
    expect(output).toContain('"code":"22P02"');
    expect(output).toContain('invalid input syntax for type uuid: \\"…\\"');
    expect(output).not.toContain(MARKER);
    // (A real Postgres in the suite may be reached without a password: then there is none to leak.)
    if (databasePassword()) expect(output).not.toContain(databasePassword());
    expect(output).not.toMatch(/select .* from "users"/i);
  });

  it('a PostgresError from postgres.js itself is told without its query or parameters', async () => {
    const error = await getSql()`select ${MARKER}::uuid as id`.catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('PostgresError');
    logError('lookup failed', error, { requestId: 'req-43' });
    const output = printed();
    expect(output).toContain('"name":"PostgresError"');
    expect(output).toContain('"code":"22P02"');
    expect(output).not.toContain(MARKER);
    expect(output).not.toContain('::uuid');
  });

  it('takes credentials out of a URL in a message, and tells only the type of a thrown non-Error', () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.username = 'memlens';
    url.password = 'pw-7f3a-never-logged';
    logError('could not connect', new Error(`connect failed for ${url}`));
    logError('odd throw', MARKER);
    const output = printed();
    expect(output).not.toContain('pw-7f3a-never-logged');
    expect(output).toContain('postgres://…:…@');
    expect(output).not.toContain(MARKER);
    expect(output).toContain('"name":"string"');
  });

  it("better-auth's log lines keep the message and the error's kind, not the user or the parameters", async () => {
    const error = await getDb()
      .select()
      .from(users)
      .where(eq(users.id, MARKER))
      .catch((caught: unknown) => caught);
    logFromLibrary('auth', 'error', 'INTERNAL_SERVER_ERROR', [error, { email: `${MARKER}@example.com` }]);
    const output = printed();
    expect(output).toContain('auth: INTERNAL_SERVER_ERROR');
    expect(output).toContain('"code":"22P02"');
    expect(output).not.toContain(MARKER);
  });

  it('with MEMLENS_DEBUG=1 shows the whole error, query and parameters included', async () => {
    process.env.MEMLENS_DEBUG = '1';
    const response = await failingRoute(failingRequest());
    expect(response.status).toBe(500);
    const output = printed();
    expect(output).toContain(MARKER);
    expect(output).toMatch(/parameters: \[\s*'my-secret-diary-entry-7f3a'/);
    expect(output).toMatch(/select .* from "users"/i);
  });
});
