import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// Small runs of both benchmarks, as a user runs them: they finish and their reports have every field.
// The targets are measured in docs/benchmarks.md; the recall floor is tests/integration/eval/locomo-floor.test.ts.
const run = promisify(execFile);
const tsx = path.resolve('node_modules/.bin/tsx');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-bench-'));
const env = { ...process.env, DATABASE_URL: '', OPENAI_API_KEY: '' };

describe('benchmarks (small runs)', () => {
  it('bench:locomo reports recall per category, overall, tokens and the baselines, with a plot', async () => {
    const json = path.join(out, 'locomo.json');
    const svg = path.join(out, 'locomo.svg');
    const { stdout } = await run(
      tsx,
      ['--conditions=react-server', 'bench/locomo.ts', '--data', 'tests/fixtures/locomo-mini.json', '--json', json, '--svg', svg],
      {
        env,
        timeout: 240_000,
      },
    );
    expect(stdout).toContain('| system');
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(report.environment).toMatchObject({ commit: expect.any(String), cpu: expect.any(String), node: expect.any(String) });
    expect(report.systems.map((s: { system: string }) => s.system).sort()).toEqual(
      ['full-history', 'ours@2000', 'ours@4000', 'ours@8000', 'recent-20'].sort(),
    );
    for (const system of report.systems) {
      expect(Object.keys(system.recallByCategory)).toEqual(['1', '2', '3', '4']);
      expect(system).toMatchObject({
        questions: 6,
        recallOverall: expect.any(Number),
        recallCategory5: expect.any(Number),
        meanTokens: expect.any(Number),
        p95Tokens: expect.any(Number),
        shareOfFullHistoryTokens: expect.any(Number),
      });
      expect(system.recallOverall).toBeGreaterThanOrEqual(0);
      // Strict never exceeds credited: credited counts every present text too.
      expect(system.creditedRecallOverall).toBeGreaterThanOrEqual(system.recallOverall);
      expect(system.creditedRecallOverall).toBeLessThanOrEqual(1);
    }
    const full = report.systems.find((s: { system: string }) => s.system === 'full-history');
    expect(full.recallOverall).toBe(1);
    expect(stdout).toContain('strict (1-4)');
    expect(fs.readFileSync(svg, 'utf8')).toMatch(/^<svg/u);
  }, 300_000);

  it('bench:latency reports assembly and bare kNN percentiles, their ratio, and ingestion throughput', async () => {
    const json = path.join(out, 'latency.json');
    const { stdout } = await run(
      tsx,
      ['--conditions=react-server', 'bench/latency.ts', '--sizes', '200', '--queries', '10', '--ingest-turns', '10', '--json', json],
      {
        env,
        timeout: 240_000,
      },
    );
    expect(stdout).toContain('assembly p95 ms');
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(report.sizes).toHaveLength(1);
    expect(report.sizes[0]).toMatchObject({
      size: 200,
      assemblyP50: expect.any(Number),
      assemblyP95: expect.any(Number),
      knnP50: expect.any(Number),
      knnP95: expect.any(Number),
      ratioP95: expect.any(Number),
    });
    expect(Object.keys(report.sizes[0].stepsP50)).toContain('recall_episodes');
    // The same conversation imported into an empty database and beside the seeded users' items.
    expect(report.ingestion).toMatchObject({
      empty: { turns: 10, turnsPerSecond: expect.any(Number) },
      besideOthers: { turns: 10, turnsPerSecond: expect.any(Number), othersItems: 400 },
      slowdown: expect.any(Number),
    });
    expect(report.environment.commit).toEqual(expect.any(String));
  }, 300_000);
});
