import { embeddedRowsAfter, embeddedTables, FIRST_ID, sampleEmbeddedRows, setEmbeddings } from '@/db/embedding-rows';
import type { Models } from '@/lib/llm';
import { cosine } from '@/lib/llm/local-embedder';
import { logError } from '@/lib/log';
import { embedTexts } from './embed';

/** Rows re-embedded per embedder call and update. */
const BATCH = 64;
/** Rows compared per table: the highest ids (where a cut-off re-embedding stopped) and random others. */
const SAMPLE_HIGHEST = 10;
const SAMPLE_RANDOM = 10;
/** The same text through the same embedder gives the same vector, up to float rounding. */
const SAME_EMBEDDER = 0.99;

export type TableCheck = { table: string; sampled: number; lowestSimilarity: number | null; matches: boolean };

/**
 * Whether each table's stored vectors were made by the configured embedder: a sample of its rows is
 * embedded again and compared. Vectors of two embedders are not comparable, so a search over a mix
 * ranks by noise; nothing in a row says which embedder made it, but its vector does.
 */
export async function checkStoredEmbeddings(models: Models): Promise<TableCheck[]> {
  const checks: TableCheck[] = [];
  for (const table of await embeddedTables()) {
    const rows = await sampleEmbeddedRows(table, SAMPLE_HIGHEST, SAMPLE_RANDOM);
    if (rows.length === 0) {
      checks.push({ table, sampled: 0, lowestSimilarity: null, matches: true });
      continue;
    }
    const fresh = await embedTexts(
      models,
      rows.map((r) => r.content),
    );
    const lowest = Math.min(...rows.map((r, i) => cosine(r.embedding, fresh[i])));
    checks.push({ table, sampled: rows.length, lowestSimilarity: lowest, matches: lowest >= SAME_EMBEDDER });
  }
  return checks;
}

/** Re-embeds every row of a table with the configured embedder, in id order; returns how many. */
export async function reembedTable(models: Models, table: string): Promise<number> {
  let done = 0;
  for (let after = FIRST_ID; ; ) {
    const rows = await embeddedRowsAfter(table, after, BATCH);
    if (rows.length === 0) return done;
    const vectors = await embedTexts(
      models,
      rows.map((r) => r.content),
    );
    await setEmbeddings(
      table,
      rows.map((r, i) => ({ id: r.id, embedding: vectors[i] })),
    );
    done += rows.length;
    after = rows[rows.length - 1].id;
  }
}

/**
 * Brings stored vectors in line with the configured embedder: the tables whose sample does not
 * match are re-embedded. Run by the worker when a server starts, so switching OFFLINE_EMBEDDER,
 * EMBEDDING_MODEL or adding an API key needs no manual step; until it is done, recall by meaning
 * over the old rows is poor (recall by words is unaffected). Two processes doing it at once write
 * the same vectors.
 */
export async function syncStoredEmbeddings(
  models: Models,
  log: (line: string) => void,
): Promise<Array<{ table: string; reembedded: number }>> {
  const out: Array<{ table: string; reembedded: number }> = [];
  for (const check of await checkStoredEmbeddings(models)) {
    if (check.matches) continue;
    log(
      `${check.table}: stored vectors were made by another embedder (similarity ${check.lowestSimilarity?.toFixed(3)}); re-embedding with ${models.embedding.modelId}`,
    );
    const reembedded = await reembedTable(models, check.table);
    log(`${check.table}: ${reembedded} rows re-embedded`);
    out.push({ table: check.table, reembedded });
  }
  return out;
}

/** For a starting server or worker: the sync in the background, logged; a failure is retried at the next start. */
export function syncStoredEmbeddingsInBackground(models: Models): void {
  const log = (line: string) => console.info('[memlens]', line);
  void syncStoredEmbeddings(models, log).catch((error: unknown) => logError('re-embedding stored memories', error));
}
