/**
 * npm run db:reembed [-- --check]
 *
 * Vectors from different embedders are not comparable, and rows do not record which embedder made
 * them. After changing the embedder (OFFLINE_EMBEDDER, EMBEDDING_MODEL, an API key set or removed),
 * run this with the app stopped: it re-embeds every stored `content` that has an `embedding`
 * (episodes, active facts, and any later table of the same shape) with the embedder now configured.
 * --check only samples rows and says whether their vectors match the configured embedder.
 */
import { parseArgs } from 'node:util';
import { getSql } from '../db/client';
import { getModels } from '../lib/llm';
import { embedTexts } from '../lib/memory/embed';
import { appDataDir, withDatabase } from './with-database';

const BATCH = 64;
const SAMPLE = 20;
// Re-embedding the same text with the same embedder gives the same vector, up to float rounding.
const SAME_EMBEDDER = 0.99;

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });

/** Tables with an `id`, a text `content` and a vector `embedding`: what the memory stores by meaning. */
async function embeddedTables(): Promise<string[]> {
  const rows = await getSql()<{ table_name: string }[]>`
    select table_name from information_schema.columns
    where table_schema = current_schema() and column_name in ('id', 'content', 'embedding')
    group by table_name having count(*) = 3`;
  return rows.map((r) => r.table_name);
}

const literal = (vector: number[]) => `[${vector.join(',')}]`;
const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

async function check(table: string): Promise<number | undefined> {
  const sql = getSql();
  const rows = await sql<{ content: string; embedding: string }[]>`
    select content, embedding::text as embedding from ${sql(table)} where embedding is not null limit ${SAMPLE}`;
  if (rows.length === 0) return undefined;
  const fresh = await embedTexts(getModels(), rows.map((r) => r.content));
  const similarities = rows.map((r, i) => cosine(JSON.parse(r.embedding) as number[], fresh[i]));
  return Math.min(...similarities);
}

async function reembed(table: string): Promise<number> {
  const sql = getSql();
  let done = 0;
  for (let after = ''; ; ) {
    const rows = await sql<{ id: string; content: string }[]>`
      select id::text as id, content from ${sql(table)}
      where embedding is not null and id::text > ${after} order by id::text limit ${BATCH}`;
    if (rows.length === 0) return done;
    const vectors = await embedTexts(getModels(), rows.map((r) => r.content));
    for (const [i, row] of rows.entries()) {
      await sql`update ${sql(table)} set embedding = ${literal(vectors[i])}::vector where id::text = ${row.id}`;
    }
    done += rows.length;
    after = rows[rows.length - 1].id;
  }
}

await withDatabase(
  async () => {
    const embedder = getModels().embedding.modelId;
    for (const table of await embeddedTables()) {
      if (values.check) {
        const lowest = await check(table);
        const verdict = lowest === undefined ? 'empty' : lowest >= SAME_EMBEDDER ? 'matches' : 'made by another embedder: run without --check';
        console.log(`${table}: ${verdict}${lowest === undefined ? '' : ` (lowest similarity ${lowest.toFixed(3)} to ${embedder})`}`);
      } else {
        console.log(`${table}: ${await reembed(table)} rows re-embedded with ${embedder}`);
      }
    }
  },
  { dataDir: appDataDir() },
);
