import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenarios, scenarioFileSchema } from '@/lib/eval/scenarios';

// The project's own scenarios (same kinds as the shared visible file, other strings) always run;
// the shared file runs where ../shared exists (CI and this workspace), and is skipped with a notice elsewhere.
const own = path.resolve('tests/fixtures/scenarios.json');
const shared = path.resolve('../shared/bench/scenarios/visible.json');
const hasShared = fs.existsSync(shared);
if (!hasShared) console.warn(`[scenarios] ${shared} is absent: skipping the shared visible scenarios`);

const load = (file: string) => scenarioFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));

describe('memory scenarios on the offline defaults', () => {
  it.each(load(own).scenarios.map((s) => [s.id, s]))('own: %s', async (_, scenario) => {
    const [result] = await runScenarios({ format: 'memory-scenarios/1', scenarios: [scenario] });
    expect(result.missing).toEqual([]);
  });

  it.skipIf(!hasShared).each(hasShared ? load(shared).scenarios.map((s) => [s.id, s]) : [['none', null]])('shared visible: %s', async (_, scenario) => {
    const [result] = await runScenarios({ format: 'memory-scenarios/1', scenarios: [scenario!] });
    expect(result.missing).toEqual([]);
  });
});
