/**
 * npm run bench:locomo -- --data ../shared/bench/locomo/locomo-dev.json [--budget 4000] [--mode single|sessions]
 *                         [--json out.json] [--svg out.svg] [--limit-turns N] [--limit-questions N] [--answer]
 *
 * Evidence recall and context tokens on LoCoMo for our pipeline at budgets 2,000 / 4,000 / 8,000 (and
 * --budget), side by side with the recent-window and full-history baselines, in one run on the same data.
 * The headline is strict recall (evidence text present in the context); credited recall, which also
 * counts evidence that an item lists as its source, is printed beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { percent } from '@/lib/eval/rates';
import { withDatabase } from '../scripts/with-database';
import { evaluateSample, ingestSample, locomoSchema, type Mode, type QuestionResult } from './lib/locomo';
import { type AnswerRow, answerAndGrade, answerRates } from './lib/locomo-answer';
import { summarise, summaryTable } from './lib/locomo-report';
import { environment, progress, renderSvg } from './lib/report';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    budget: { type: 'string', default: '4000' },
    mode: { type: 'string', default: 'single' },
    json: { type: 'string', default: 'bench/out/locomo.json' },
    svg: { type: 'string', default: 'bench/out/locomo-recall-vs-tokens.svg' },
    'limit-turns': { type: 'string' },
    'limit-questions': { type: 'string' },
    'limit-samples': { type: 'string' },
    answer: { type: 'boolean', default: false },
  },
});
if (!values.data || !['single', 'sessions'].includes(values.mode!)) {
  console.error('usage: npm run bench:locomo -- --data FILE [--budget 4000] [--mode single|sessions] [--json OUT] [--answer]');
  process.exit(2);
}
if (!process.env.OPENAI_API_KEY) delete process.env.OPENAI_BASE_URL;
const mode = values.mode as Mode;
const budgets = [...new Set([2000, 4000, 8000, Number(values.budget)])].sort((a, b) => a - b);
const limit = (v: string | undefined) => (v ? Number(v) : Infinity);
const samples = locomoSchema.parse(JSON.parse(fs.readFileSync(values.data, 'utf8'))).slice(0, limit(values['limit-samples']));
const env = environment();
progress(`LoCoMo: ${samples.length} samples, mode ${mode}, budgets ${budgets.join(', ')}; ${env.commit}, ${env.cpu}`);

const report = await withDatabase(async () => {
  const all: Record<string, QuestionResult[]> = {};
  const ingestion: Array<{ sample: string; messages: number; seconds: number }> = [];
  const answers: AnswerRow[] = [];
  for (const sample of samples) {
    progress(`sample ${sample.sample_id}: ingesting`);
    const ingested = await ingestSample(sample, mode, limit(values['limit-turns']));
    ingestion.push({ sample: sample.sample_id, messages: ingested.messageCount, seconds: Math.round(ingested.ingestMs) / 1000 });
    const results = await evaluateSample(sample, ingested, budgets, limit(values['limit-questions']));
    for (const [system, rows] of Object.entries(results)) {
      all[system] ??= [];
      all[system].push(...rows);
    }
    if (values.answer) answers.push(...(await answerAndGrade(sample, ingested, Number(values.budget), limit(values['limit-questions']))));
  }
  return { environment: env, mode, budgets, ingestion, systems: summarise(all), answers };
});

console.log(`\nLoCoMo evidence recall (${values.data}, mode ${mode}); ${report.environment.commit} on ${report.environment.cpu}\n`);
console.log(summaryTable(report.systems));
if (values.answer) {
  const rates = answerRates(report.answers);
  console.log(
    `\nanswers (${rates.questions} questions): the gold answer's words are in ${percent(rates.goldInAnswerWhenInContext)} of the answers whose context holds them (${rates.goldInContext}); judged correct: ${percent(rates.judgedCorrect)}`,
  );
}
fs.mkdirSync(path.dirname(values.json!), { recursive: true });
fs.writeFileSync(values.json!, JSON.stringify(report, null, 2));
fs.mkdirSync(path.dirname(values.svg!), { recursive: true });
fs.writeFileSync(
  values.svg!,
  await renderSvg({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: `LoCoMo evidence recall vs context tokens (${mode})`,
    width: 480,
    height: 300,
    data: { values: report.systems.map((s) => ({ system: s.system, tokens: s.meanTokens, recall: s.recallOverall })) },
    layer: [
      {
        mark: { type: 'point', filled: true, size: 90 },
        encoding: {
          x: { field: 'tokens', type: 'quantitative', scale: { type: 'log' }, title: 'mean context tokens (log)' },
          y: { field: 'recall', type: 'quantitative', scale: { domain: [0, 1] }, title: 'strict evidence recall (categories 1-4)' },
          color: { field: 'system', type: 'nominal' },
        },
      },
      {
        mark: { type: 'text', dy: -10 },
        encoding: { x: { field: 'tokens', type: 'quantitative' }, y: { field: 'recall', type: 'quantitative' }, text: { field: 'system' } },
      },
    ],
  }),
);
console.log(`\nreport: ${values.json}\nplot: ${values.svg}`);
