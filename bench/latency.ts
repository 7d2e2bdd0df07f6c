/**
 * npm run bench:latency -- [--sizes 1000,10000,100000] [--queries 100] [--ingest-turns 200] [--json out.json] [--data-dir DIR]
 *
 * Context assembly latency for a user with N facts and N episodes: every step of the chain but the
 * embedding model's own call (timed beside it: a model call, like the chat model's), next to a bare
 * pgvector kNN on the same episodes table (the floor). Ingestion throughput through the real import
 * path, twice with the same conversation: into the empty database, then into the one holding every
 * seeded user's items (the import must not slow down with other users' data). PGlite by default,
 * DATABASE_URL when set. Seeds are fixed. `--data-dir` keeps the embedded database in DIR, and a
 * database that already holds a size's seeded user (from an earlier run, in DIR or DATABASE_URL's)
 * is measured as it is, without seeding again: a 100k seed takes about ten minutes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { previewContext } from '@/lib/memory/context/preview';
import { getSql } from '../db/client';
import { createGuestUser } from '../db/users';
import { toVectorLiteral } from '../db/vector';
import { importConversation } from '../lib/import';
import { getModels } from '../lib/llm';
import { embedTexts } from '../lib/memory/embed';
import { withDatabase } from '../scripts/with-database';
import { environment, markdownTable, percentile, progress } from './lib/report';
import { seededUser } from './lib/seed';
import { filler, seededRandom, templates, vocabulary } from './lib/synthetic';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    queries: { type: 'string', default: '100' },
    'ingest-turns': { type: 'string', default: '200' },
    json: { type: 'string', default: 'bench/out/latency.json' },
    'data-dir': { type: 'string' },
  },
});
if (!process.env.OPENAI_API_KEY) delete process.env.OPENAI_BASE_URL;
const sizes = values.sizes!.split(',').map(Number);
const queryCount = Number(values.queries);
const env = environment(values['data-dir']);
progress(`latency: sizes ${sizes.join(', ')}, ${queryCount} queries each; ${env.commit}, ${env.cpu}, ${env.database}`);

function bareKnn(userId: string, literal: string, k: number) {
  return getSql().begin(async (tx) => {
    await tx`set local hnsw.iterative_scan = relaxed_order`;
    await tx`set local enable_seqscan = off`;
    return tx`select id from episodes where user_id = ${userId} and in_graph order by embedding <=> ${literal}::vector limit ${k}`;
  });
}

/** The embedding model's own call, reported beside the assembly rather than in it. */
const EMBED_STEP = 'embed_query';

async function timeIt<T>(fn: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** The same synthetic conversation every time: user turns (a third of them stating facts) and replies. */
function ingestionMessages(turns: number) {
  const random = seededRandom(99);
  const words = vocabulary(300, random);
  return Array.from({ length: turns }, (_, i) => [
    {
      role: 'user' as const,
      content:
        i % 3 === 0
          ? filler(templates.fact[i % templates.fact.length], words, random)
          : filler(templates.user[i % templates.user.length], words, random),
    },
    { role: 'assistant' as const, content: filler(templates.reply[i % templates.reply.length], words, random) },
  ]).flat();
}

/** Imports the conversation for a new user; turns per second. */
async function ingest(turns: number) {
  const user = await createGuestUser();
  const ms = await timeIt(() => importConversation(user.id, { title: 'ingestion', messages: ingestionMessages(turns) }));
  return { turns, seconds: round(ms / 1000), turnsPerSecond: round(turns / (ms / 1000)) };
}

const results = await withDatabase(
  async () => {
    const turns = Number(values['ingest-turns']);
    // A short import first, so that neither measured import pays for the process's warm-up.
    await ingest(10);
    progress(`ingestion into the empty database: ${turns} turns through the import path`);
    const ingestEmpty = await ingest(turns);
    const rows = [];
    let othersItems = 0;
    for (const size of sizes) {
      progress(`size ${size}: seeding`);
      const { user, conversation, words, loadSeconds } = await seededUser(size, 42 + size);
      othersItems += 2 * size;
      const random = seededRandom(7);
      const questions = Array.from(
        { length: queryCount + 10 },
        () => `What did we say about ${words[Math.floor(random() * words.length)]}?`,
      );
      const scope = { userId: user.id, conversationId: conversation.id };
      const [probeVector] = await embedTexts(getModels(), [questions[0]]);
      const assembly: number[] = [];
      const embedding: number[] = [];
      const knn: number[] = [];
      const steps: Record<string, number[]> = {};
      for (const [i, question] of questions.entries()) {
        let state: Awaited<ReturnType<typeof previewContext>> | undefined;
        const ms = await timeIt(async () => (state = await previewContext(scope, question)));
        const embedMs = state!.trace.find((t) => t.step === EMBED_STEP)?.ms ?? 0;
        const [vector] = await embedTexts(getModels(), [question]);
        const literal = toVectorLiteral(vector.length ? vector : probeVector);
        const k = state!.runs.find((r) => r.kind === 'episodes')?.topK ?? 20;
        // The floor: the same user's k nearest episodes straight from the HNSW index, nothing else.
        const floor = await timeIt(() => bareKnn(user.id, literal, k));
        if (i === 0) {
          const plan = await getSql().begin(async (tx) => {
            await tx`set local hnsw.iterative_scan = relaxed_order`;
            await tx`set local enable_seqscan = off`;
            return tx`explain select id from episodes where user_id = ${user.id} and in_graph order by embedding <=> ${literal}::vector limit ${k}`;
          });
          progress(
            `  bare kNN plan: ${plan
              .map((r) => r['QUERY PLAN'])
              .join(' / ')
              .replace(/'\[[^\]]*\]'/gu, "'[…]'")}`,
          );
        }
        if (i < 10) continue; // warm-up
        assembly.push(ms - embedMs);
        embedding.push(embedMs);
        knn.push(floor);
        for (const t of state!.trace) {
          steps[t.step] ??= [];
          steps[t.step].push(t.ms);
        }
      }
      const row = {
        size,
        loadSeconds: Math.round(loadSeconds * 10) / 10,
        assemblyP50: round(percentile(assembly, 50)),
        assemblyP95: round(percentile(assembly, 95)),
        embedP50: round(percentile(embedding, 50)),
        embedP95: round(percentile(embedding, 95)),
        knnP50: round(percentile(knn, 50)),
        knnP95: round(percentile(knn, 95)),
        ratioP95: round(percentile(assembly, 95) / Math.max(percentile(knn, 95), 0.001)),
        stepsP50: Object.fromEntries(Object.entries(steps).map(([step, ms]) => [step, round(percentile(ms, 50))])),
        stepsP95: Object.fromEntries(Object.entries(steps).map(([step, ms]) => [step, round(percentile(ms, 95))])),
      };
      progress(
        `size ${size}: assembly p50 ${row.assemblyP50} ms, p95 ${row.assemblyP95} ms (embedding p95 ${row.embedP95} ms beside); kNN p95 ${row.knnP95} ms`,
      );
      rows.push(row);
    }

    progress(`ingestion beside ${othersItems} other users' items: the same ${turns} turns`);
    const ingestBeside = await ingest(turns);
    return {
      environment: env,
      sizes: rows,
      ingestion: {
        empty: ingestEmpty,
        besideOthers: { ...ingestBeside, othersItems },
        slowdown: round(ingestBeside.seconds / Math.max(ingestEmpty.seconds, 0.001)),
      },
    };
  },
  { dataDir: values['data-dir'] },
);

function round(v: number) {
  return Math.round(v * 100) / 100;
}

console.log(`\nContext assembly latency (${results.environment.database}); ${results.environment.commit} on ${results.environment.cpu}\n`);
console.log(
  markdownTable(
    [
      'items (facts + episodes each)',
      'load s',
      'assembly p50 ms',
      'assembly p95 ms',
      'bare kNN p50 ms',
      'bare kNN p95 ms',
      'p95 ratio',
      'embedding call p95 ms (not in assembly)',
    ],
    results.sizes.map((r) => [r.size, r.loadSeconds, r.assemblyP50, r.assemblyP95, r.knnP50, r.knnP95, r.ratioP95, r.embedP95]),
  ),
);
const stepNames = Object.keys(results.sizes[0]?.stepsP50 ?? {});
const stepRows = results.sizes.flatMap((r) => [
  [`${r.size} p50`, ...Object.values(r.stepsP50)],
  [`${r.size} p95`, ...Object.values(r.stepsP95)],
]);
console.log(`\nSteps, ms:\n${markdownTable(['items', ...stepNames], stepRows)}`);
const { empty, besideOthers, slowdown } = results.ingestion;
console.log(`\nIngestion through the import path (embedding, episode, facts, summary), the same ${empty.turns} turns:`);
console.log(
  markdownTable(
    ['database', 'seconds', 'turns/s'],
    [
      ['empty', empty.seconds, empty.turnsPerSecond],
      [`beside ${besideOthers.othersItems} other users' items`, besideOthers.seconds, besideOthers.turnsPerSecond],
    ],
  ),
);
console.log(`time ratio (beside others / empty): ${slowdown}`);
fs.mkdirSync(path.dirname(values.json!), { recursive: true });
fs.writeFileSync(values.json!, JSON.stringify(results, null, 2));
console.log(`report: ${values.json}`);
