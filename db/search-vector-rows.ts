import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, getSql } from './client';
import { tablesWithColumns } from './embedding-rows';
import { searchVector } from './search-vector';

/**
 * Rows of the lexical index, across tables: what a change of how index terms are computed
 * (lib/text/bilingual.ts indexTerms) must reach. Any table with an `id`, a text `content` and a
 * `search_vector` (episodes, facts).
 */
export const indexedTables = () => tablesWithColumns(['id', 'content', 'search_vector']);

export type IndexedRow = { id: string; content: string };

/** A sample of a table's rows: the `highest` greatest ids (where a cut-off re-index stopped) and `random` others. */
export async function sampleIndexedRows(table: string, highest: number, random: number): Promise<IndexedRow[]> {
  const sql = getSql();
  return sql<IndexedRow[]>`
    select id::text as id, content from ${sql(table)} where id in (
      (select id from ${sql(table)} order by id desc limit ${highest})
      union
      (select id from ${sql(table)} order by random() limit ${random}))`;
}

/** The next `limit` rows with an id above `after`, in id order: a re-index's cursor. */
export async function indexedRowsAfter(table: string, after: string, limit: number): Promise<IndexedRow[]> {
  const sql = getSql();
  return sql<IndexedRow[]>`
    select id::text as id, content from ${sql(table)} where id > ${after}::uuid order by id limit ${limit}`;
}

/** How many of these rows hold another index value than their content and these terms give. */
export async function staleSearchVectors(table: string, rows: Array<IndexedRow & { terms: string[] }>): Promise<number> {
  let stale = 0;
  for (const row of rows) {
    const [found] = (await getDb().execute(
      sql`select 1 from ${sql.identifier(table)} where id = ${row.id}::uuid and search_vector <> ${searchVector(row.content, row.terms)}`,
    )) as unknown as unknown[];
    if (found) stale++;
  }
  return stale;
}

/** Writes rows' index values from their content and these terms; a row whose content changed meanwhile is left to its writer. */
export async function setSearchVectors(table: string, rows: Array<IndexedRow & { terms: string[] }>): Promise<void> {
  await getDb().transaction(async (tx) => {
    for (const row of rows)
      await tx.execute(
        sql`update ${sql.identifier(table)} set search_vector = ${searchVector(row.content, row.terms)} where id = ${row.id}::uuid and content = ${row.content}`,
      );
  });
}
