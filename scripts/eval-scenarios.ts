/**
 * npm run eval:scenarios -- --file ../shared/bench/scenarios/visible.json [--json report.json]
 * Exits 0 only when every scenario passes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatTable, runScenarios, scenarioFileSchema } from '../lib/eval/scenarios';
import { withDatabase } from './with-database';

const { values } = parseArgs({
  options: { file: { type: 'string' }, json: { type: 'string', default: 'bench/out/scenarios-report.json' } },
});
if (!values.file) {
  console.error('usage: npm run eval:scenarios -- --file FILE [--json OUT]');
  process.exit(2);
}
const file = scenarioFileSchema.parse(JSON.parse(fs.readFileSync(values.file, 'utf8')));
const results = await withDatabase(() => runScenarios(file));
console.log(formatTable(results));
fs.mkdirSync(path.dirname(values.json!), { recursive: true });
fs.writeFileSync(values.json!, JSON.stringify({ file: values.file, at: new Date().toISOString(), results }, null, 2));
const failed = results.filter((r) => !r.pass).length;
console.log(`\n${results.length - failed}/${results.length} passed; report: ${values.json}`);
process.exit(failed === 0 ? 0 : 1);
