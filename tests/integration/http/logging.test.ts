import { formatWithOptions } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { getDb, getSql } from '@/db/client';
import { users } from '@/db/schema';
import { resetConfigForTests } from '@/lib/config';
import { route } from '@/lib/http';
import { escapeConsoleLines, logError, logFromLibrary } from '@/lib/log';

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
  resetConfigForTests();
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
    resetConfigForTests(); // the settings are read once
    const response = await failingRoute(failingRequest());
    expect(response.status).toBe(500);
    const output = printed();
    expect(output).toContain(MARKER);
    expect(output).toMatch(/parameters: \[\s*'my-secret-diary-entry-7f3a'/);
    expect(output).toMatch(/select .* from "users"/i);
  });
});

// What an attacker puts in a query parameter or a body to forge log lines or drive the terminal:
// CR/LF and a line that looks like ours, ANSI colour and screen-clearing sequences, an OSC title, C1 CSI, U+2028.
const FORGED = '\r\n[memlens] forged line \u001b[31mred\u001b[2J \u001b]0;title\u0007 \u009b1m \u2028[memlens] forged too';
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/** Each console call as Node would have written it: one line, no control character, no forged entry. */
const lines = () => consoleError.mock.calls.map((args) => formatWithOptions({ colors: false }, ...args));

describe('log lines cannot be forged', () => {
  it("better-auth's refused callbackURL is logged as the kind of refusal, without the value or a new line", () => {
    logFromLibrary('auth', 'error', `Invalid callbackURL: ${FORGED}`, []);
    logFromLibrary('auth', 'error', `Invalid origin: https://evil.example/?q=${MARKER}`, []);
    expect(lines()).toEqual(['[memlens] auth: Invalid callbackURL: …', '[memlens] auth: Invalid origin: …']);
  });

  it('a library message of any other shape has its control characters escaped and its URLs and emails dropped', () => {
    logFromLibrary('auth', 'error', `odd${FORGED} at https://app.example/cb?token=${MARKER} for ${MARKER}@example.com`, [
      new Error(FORGED),
    ]);
    expect(lines()).toHaveLength(1);
    const [line] = lines();
    expect(line).not.toMatch(CONTROL);
    expect(line).toContain('odd\\r\\n[memlens] forged line \\u001b[31mred\\u001b[2J \\u001b]0;title\\u0007 \\u009b1m \\u2028');
    expect(line).not.toContain(MARKER);
  });

  it('an error message, an event name and a path with control characters stay on one line, with MEMLENS_DEBUG too', () => {
    const error = new Error(`bad input${FORGED}`, { cause: new Error(FORGED) });
    logError(`lookup${FORGED}`, error, { path: `/api/x${FORGED}`, method: 'GET' });
    process.env.MEMLENS_DEBUG = '1';
    resetConfigForTests();
    logError(`lookup${FORGED}`, error);
    logFromLibrary('auth', 'error', `Invalid callbackURL: ${FORGED}`, [error]);
    expect(lines()).toHaveLength(3);
    for (const line of lines()) {
      expect(line).not.toMatch(CONTROL);
      expect(line).toContain('forged line');
    }
  });

  it("the server processes' console (Next's and the libraries' own lines) writes every line escaped", () => {
    const written: unknown[][] = [];
    const target = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) target[level] = (...args: unknown[]) => void written.push(args);
    escapeConsoleLines(target);
    target.error('GET %s failed:', `/c?x=${FORGED}`, new Error(FORGED));
    target.log(`[memlens] ready${FORGED}`);
    target.warn({ url: FORGED });
    expect(written).toHaveLength(3);
    for (const args of written) {
      expect(args).toHaveLength(1);
      expect(args[0]).not.toMatch(CONTROL);
    }
    expect(written[0][0]).toContain('GET /c?x=\\r\\n[memlens] forged line');
  });
});
