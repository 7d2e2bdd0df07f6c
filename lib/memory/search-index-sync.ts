import { FIRST_ID } from '@/db/embedding-rows';
import {
  type IndexedRow,
  indexedRowsAfter,
  indexedTables,
  sampleIndexedRows,
  setSearchVectors,
  staleSearchVectors,
} from '@/db/search-vector-rows';
import { logError } from '@/lib/log';
import { indexTerms } from '@/lib/text/index-terms';

/** Rows re-indexed per transaction. */
const BATCH = 64;
/** Rows compared per table: the highest ids (where a cut-off re-index stopped) and random others. */
const SAMPLE_HIGHEST = 10;
const SAMPLE_RANDOM = 10;

const withTerms = (rows: IndexedRow[]) => rows.map((row) => ({ ...row, terms: indexTerms(row.content) }));

/** Rewrites every row's index value of a table from its content, in id order; returns how many rows. */
async function reindexTable(table: string): Promise<number> {
  let done = 0;
  for (let after = FIRST_ID; ; ) {
    const rows = await indexedRowsAfter(table, after, BATCH);
    if (rows.length === 0) return done;
    await setSearchVectors(table, withTerms(rows));
    done += rows.length;
    after = rows[rows.length - 1].id;
  }
}

/**
 * Brings the lexical index in line with how index terms are computed now (a new segmenter, the
 * bilingual bridge): a table whose sampled rows hold other values than their content gives today
 * is re-indexed whole. As with stored vectors (embedder-sync.ts), nothing in a row says how it was
 * indexed, but recomputing a sample tells; rows the sample misses are reached when a later change
 * makes a sampled row differ. Run with the embedder sync when a server or worker starts.
 */
export async function syncSearchIndex(log: (line: string) => void): Promise<Array<{ table: string; reindexed: number }>> {
  const out: Array<{ table: string; reindexed: number }> = [];
  for (const table of await indexedTables()) {
    const stale = await staleSearchVectors(table, withTerms(await sampleIndexedRows(table, SAMPLE_HIGHEST, SAMPLE_RANDOM)));
    if (stale === 0) continue;
    log(`${table}: ${stale} sampled rows were indexed with other terms; re-indexing`);
    const reindexed = await reindexTable(table);
    log(`${table}: ${reindexed} rows re-indexed`);
    out.push({ table, reindexed });
  }
  return out;
}

/** For a starting server or worker: the re-index in the background, logged; a failure is retried at the next start. */
export function syncSearchIndexInBackground(): void {
  const log = (line: string) => console.info('[memlens]', line);
  void syncSearchIndex(log).catch((error: unknown) => logError('re-indexing stored memories', error));
}
