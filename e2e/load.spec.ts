import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { runLoadBench } from '../bench/lib/load-run';

// The load bench at a tiny size, the same code `npm run bench:load` runs: the production server
// this run built, on its own embedded database, started by the bench with the stub model; three
// guests send two full turns each at once. Everything must arrive whole under its own user, and
// every post-turn job must finish. The figures are measured by the full run, not asserted here.
// The server runs as two Next processes sharing its port (WEB_CONCURRENCY=2), as a deployment that
// uses both cores would.

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-load-e2e-'));
test.afterAll(() => fs.rmSync(logDir, { recursive: true, force: true }));

test('load bench, 3 users × 2 turns: no errors, nothing lost, incomplete or crossed, all post-turn work done', async () => {
  test.setTimeout(120_000);
  process.env.WEB_CONCURRENCY = '2';
  const serverLogFile = path.join(logDir, 'server.log');
  const result = await runLoadBench({
    users: 3,
    turnsPerUser: 2,
    seconds: 60,
    stub: { latencyMs: 50, tokens: 12, tokensPerSecond: 200, embedLatencyMs: 5 },
    serverLogFile,
    requestTimeoutMs: 30_000,
    jobsTimeoutMs: 30_000,
  }).finally(() => delete process.env.WEB_CONCURRENCY);
  expect(fs.readFileSync(serverLogFile, 'utf8').match(/Ready in/gu)).toHaveLength(2);

  expect(result.load.errorSamples).toEqual([]);
  expect(result.load).toMatchObject({ users: 3, turns: 6, ok: 6, errors: 0 });
  expect(result.checks.api).toMatchObject({
    questionsAccepted: 6,
    questionsStored: 6,
    repliesComplete: 6,
    lost: [],
    incomplete: [],
    crossed: [],
  });
  expect(result.checks.ownersInDatabase).toEqual([]);
  expect(result.checks.jobs).toMatchObject({ via: 'database', finished: true, drainedWithinLimit: true });
  expect(result.checks.jobs.byStatus).toEqual({ done: result.checks.jobs.expected });
  expect(result.intact).toBe(true);

  // Every figure the report prints is there, and no faster than the stub model allows.
  expect(result.load.firstTokenMs.p50).toBeGreaterThanOrEqual(result.stub.floor.firstTokenMs);
  expect(result.load.completeMs.p50).toBeGreaterThanOrEqual(result.stub.floor.completionMs);
  expect(result.load.firstByteMs.p50).toBeGreaterThan(0);
  expect(result.load.turnsPerSecond).toBeGreaterThan(0);
  expect(Object.keys(result.load.serverStepsMs)).toContain('generate');
  expect(result.stub.calls.chat).toBe(6);
  expect(Object.keys(result.machine.cpu.cores).length).toBeGreaterThan(1);
});
