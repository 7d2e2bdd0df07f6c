/**
 * npm run bench:explain -- [--size 100000] [--data-dir DIR] [--question "…"] [--out FILE] [--profile N]
 *
 * Where a turn's context assembly spends its time in the database: assembles one context for the
 * user bench:latency seeds at --size (seeding it when the database does not hold it yet; the same
 * seeds, so a kept --data-dir or DATABASE_URL's database is shared with bench:latency), records
 * every statement the chain sends, with its parameters, then runs each read again under
 * `EXPLAIN (ANALYZE, BUFFERS)` and prints the plans in the order the chain sent them, each with the
 * step that sent it. `--profile N` also records a CPU profile of N more assemblies (bench/out/
 * explain.cpuprofile, for Chrome's DevTools) and lists where their time went by self time, per
 * function and per package: the embedded PGlite runs in this process, so its engine is in it too.
 * PGlite by default, DATABASE_URL when set.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { previewContext } from '@/lib/memory/context/preview';
import { getSql } from '../db/client';
import * as schema from '../db/schema';
import { withDatabase } from '../scripts/with-database';
import { type CpuProfile, profileTables, summarizeProfile } from './lib/cpu-profile';
import { environment, progress } from './lib/report';
import { seededUser } from './lib/seed';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    'data-dir': { type: 'string' },
    question: { type: 'string' },
    out: { type: 'string', default: 'bench/out/explain.md' },
    profile: { type: 'string', default: '0' },
  },
});
if (!process.env.OPENAI_API_KEY) delete process.env.OPENAI_BASE_URL;
const size = Number(values.size);
const env = environment(values['data-dir']);

type Sent = { sql: string; parameters: unknown[] };

const report = await withDatabase(
  async () => {
    const { user, conversation, words } = await seededUser(size, 42 + size);
    const scope = { userId: user.id, conversationId: conversation.id };
    const question = values.question ?? `What did we say about ${words[3]} and ${words[11]}?`;
    // Warm: the first assemblies pay for loading pages and compiling rules, not for the searches.
    for (let i = 0; i < 3; i++) await previewContext(scope, question);

    const sent: Sent[] = [];
    const sql = getSql();
    sql.options.debug = (_connection, statement, parameters) => {
      sent.push({ sql: statement, parameters: parameters as unknown[] });
    };
    const state = await previewContext(scope, question);
    sql.options.debug = false;

    // Which tables a statement reads: the three recalls are sent at once, so the moment a statement
    // was sent does not tell which step sent it.
    const tableNames = (Object.values(schema) as unknown[]).flatMap((value) => (is(value, PgTable) ? [getTableName(value)] : []));
    const tablesRead = (statement: Sent) => {
      const read = tableNames.filter((name) => new RegExp(`\\b(?:from|join)\\s+"?${name}"?\\b`, 'u').test(statement.sql));
      return `reads ${read.join(', ') || 'no table'}`;
    };
    const reads = sent.filter((s) => /^\s*(select|with)\b/iu.test(s.sql));
    const sections: string[] = [];
    for (const [i, statement] of reads.entries()) {
      const plan = await sql.unsafe(`explain (analyze, buffers) ${statement.sql}`, statement.parameters as never[]);
      const text = plan.map((row) => Object.values(row)[0] as string).join('\n');
      const total = /Execution Time: ([\d.]+) ms/u.exec(text)?.[1] ?? '?';
      progress(`statement ${i + 1} (${tablesRead(statement)}): ${total} ms`);
      sections.push(
        `### Statement ${i + 1}: ${tablesRead(statement)}, ${total} ms\n\n\`\`\`sql\n${statement.sql.trim()}\n\`\`\`\n\n\`\`\`\n${elideVectors(text)}\n\`\`\``,
      );
    }
    const profiled = Number(values.profile) > 0 ? await profile(Number(values.profile), () => previewContext(scope, question)) : [];
    const trace = state.trace.map((t) => `${t.step} ${t.ms} ms`).join(', ');
    return [
      `# Explain: one context at ${size} facts + ${size} episodes`,
      '',
      `${env.commit}, ${env.cpu}, ${env.database}, ${env.at}`,
      '',
      `Question: ${question}`,
      '',
      `The chain's own timing of this assembly: ${trace}. ${sent.length} statements sent, ${reads.length} of them reads.`,
      '',
      ...sections,
      ...profiled,
    ].join('\n');
  },
  { dataDir: values['data-dir'] },
);

/**
 * A CPU profile of `runs` calls of `work`, written beside the report, and its summary: the functions
 * and the packages (or project files) with the most self time.
 */
async function profile(runs: number, work: () => Promise<unknown>): Promise<string[]> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const started = performance.now();
  for (let i = 0; i < runs; i++) await work();
  const wall = performance.now() - started;
  const { profile: recorded } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  const file = path.join(path.dirname(values.out!), 'explain.cpuprofile');
  fs.writeFileSync(file, JSON.stringify(recorded));
  progress(`profile: ${runs} assemblies, ${(wall / runs).toFixed(1)} ms each; written to ${file}`);
  return [
    `## CPU profile: ${runs} assemblies, ${(wall / runs).toFixed(1)} ms each (wall), ms of self time per assembly`,
    '',
    ...profileTables(summarizeProfile(recorded), runs, 'an assembly'),
  ];
}

/** A plan prints the query vector whole: 512 numbers each time it appears. */
function elideVectors(text: string): string {
  return text.replace(/'\[[-\d.,e]+\]'/gu, "'[…]'");
}

fs.mkdirSync(path.dirname(values.out!), { recursive: true });
fs.writeFileSync(values.out!, `${report}\n`);
progress(`written to ${values.out}`);
