/**
 * npm run eval:scenarios -- --file ../shared/bench/scenarios/visible.json [--json report.json] [--reply]
 * Exits 0 only when every scenario passes. `--reply` also has the chat model (the offline one unless
 * a model is configured) answer each probe from its context, and prints how many of the expected
 * values the replies hold (of those the contexts hold, and of all), and how precisely they answer:
 * whether the first item quoted holds an expected value, whether anything quoted holds none.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { percent } from '../lib/eval/rates';
import { formatTable, replyRates, runScenarios, scenarioFileSchema } from '../lib/eval/scenarios';
import { withDatabase } from './with-database';

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    json: { type: 'string', default: 'bench/out/scenarios-report.json' },
    reply: { type: 'boolean', default: false },
  },
});
if (!values.file) {
  console.error('usage: npm run eval:scenarios -- --file FILE [--json OUT]');
  process.exit(2);
}
const file = scenarioFileSchema.parse(JSON.parse(fs.readFileSync(values.file, 'utf8')));
const results = await withDatabase(() => runScenarios(file, { reply: values.reply }));
console.log(formatTable(results));
if (values.reply) {
  const rates = replyRates(results);
  console.log(
    `\nreplies: ${percent(rates.inReplyWhenInContext)} of the ${rates.inContext} expected values the contexts hold are in the replies; ${percent(rates.inReply)} of all ${rates.expected}`,
  );
  console.log(
    `of the ${rates.answerable} replies whose context holds an expected value: the first item quoted holds one in ${percent(rates.firstQuotedHolds)}; ` +
      `${percent(rates.quotesUnrelated)} quote something holding none; ${percent(rates.saysNothingWhenInContext)} quote nothing`,
  );
  console.log(
    `of the ${rates.unanswerable} probes nothing answers: ${percent(rates.quotesWhenNothingAnswers)} of the replies quote something`,
  );
}
fs.mkdirSync(path.dirname(values.json!), { recursive: true });
fs.writeFileSync(values.json!, JSON.stringify({ file: values.file, at: new Date().toISOString(), results }, null, 2));
const failed = results.filter((r) => !r.pass).length;
console.log(`\n${results.length - failed}/${results.length} passed; report: ${values.json}`);
process.exit(failed === 0 ? 0 : 1);
