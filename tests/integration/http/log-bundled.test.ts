import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatWithOptions } from 'node:util';
import { eq } from 'drizzle-orm';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';

/**
 * lib/log.ts as a production build runs it: bundled and minified with drizzle-orm, so its copy of
 * drizzle's error class is not the one that threw (a server build may hold several), and class
 * names are shortened. Whatever the bundler does, the log holds no SQL and no parameter.
 * (e2e/logs.spec.ts checks the real `next build` server too, on a real Postgres.)
 */
type LogModule = typeof import('@/lib/log') & {
  DrizzleQueryError: typeof import('drizzle-orm').DrizzleQueryError;
  resetConfigForTests: typeof import('@/lib/config').resetConfigForTests;
};

const MARKER = 'my-secret-diary-entry-b52e';
let bundled: LogModule;
let outDir: string;
let consoleError: MockInstance<typeof console.error>;
const printed = () => consoleError.mock.calls.map((args) => formatWithOptions({ colors: false }, ...args)).join('\n');

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'memlens-log-bundle-'));
  const outfile = path.join(outDir, 'log.mjs');
  await build({
    stdin: {
      contents:
        "export * from './lib/log.ts'; export { resetConfigForTests } from './lib/config.ts'; export { DrizzleQueryError } from 'drizzle-orm';",
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
  });
  bundled = (await import(pathToFileURL(outfile).href)) as LogModule;
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  consoleError.mockRestore();
  delete process.env.MEMLENS_DEBUG;
  bundled.resetConfigForTests();
});

/** A real query error: the marker is no uuid. */
async function failingQuery(): Promise<Error> {
  try {
    await getDb().select().from(users).where(eq(users.id, MARKER));
  } catch (caught) {
    return caught as Error;
  }
  throw new Error('the query was expected to fail');
}

describe('the error log, bundled and minified', () => {
  it("a query error from another copy of drizzle's class is told by its kind: no SQL, no parameter", async () => {
    const error = await failingQuery();
    expect(error.message).toContain(MARKER); // what would leak
    bundled.logError('unhandled error in route', error, { requestId: 'req-7' });
    const output = printed();
    expect(output).toContain('"name":"DrizzleQueryError"');
    expect(output).toContain('"message":"Failed query"');
    expect(output).toContain('"code":"22P02"');
    expect(output).not.toContain(MARKER);
    expect(output).not.toContain('params:');
    expect(output).not.toMatch(/select .* from "users"/iu);
  });

  it("the bundle's own copy of the class, its name minified, is told the same way", () => {
    const cause = Object.assign(new Error('refused'), { code: 'P0001' });
    bundled.logError('failed', new bundled.DrizzleQueryError('insert into "facts" ("content") values ($1)', [MARKER], cause));
    const output = printed();
    expect(output).toContain('"name":"DrizzleQueryError"');
    expect(output).toContain('"code":"P0001"');
    expect(output).not.toContain(MARKER);
    expect(output).not.toContain('insert into');
  });

  it("a library's log line with the error keeps no parameter either", async () => {
    bundled.logFromLibrary('auth', 'error', 'INTERNAL_SERVER_ERROR', [await failingQuery()]);
    const output = printed();
    expect(output).toContain('"message":"Failed query"');
    expect(output).not.toContain(MARKER);
  });

  it("a library's message with CR/LF and escape sequences stays one line, and a refused callbackURL loses its value", () => {
    bundled.logFromLibrary('auth', 'error', `Invalid callbackURL: \r\n[memlens] forged ${MARKER}`, []);
    bundled.logError('failed\r\n[memlens] forged \u001b[2J', new Error('bad\n[memlens] forged \u001b[31m'));
    const lines = consoleError.mock.calls.map((args) => formatWithOptions({ colors: false }, ...args));
    expect(lines[0]).toBe('[memlens] auth: Invalid callbackURL: …');
    expect(lines[1]).toContain('failed\\r\\n[memlens] forged \\u001b[2J');
    for (const line of lines) expect(line).not.toMatch(/[\p{Cc}]/u);
  });

  it('under MEMLENS_DEBUG the whole error is shown, parameters included', async () => {
    process.env.MEMLENS_DEBUG = '1';
    bundled.resetConfigForTests(); // the settings are read once
    bundled.logError('failed', await failingQuery());
    expect(printed()).toContain(MARKER);
  });
});
