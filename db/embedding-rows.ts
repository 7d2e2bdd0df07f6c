import 'server-only';
import { getSql } from './client';
import { toVectorLiteral } from './vector';

/**
 * Rows stored by meaning, across tables: what a change of embedder must reach. Any table with an
 * `id`, a text `content` and a vector `embedding` (episodes, facts, and any later one of that shape).
 */
export const embeddedTables = () => tablesWithColumns(['id', 'content', 'embedding']);

/** The tables of the current schema that have every one of these columns, by name. */
export async function tablesWithColumns(columns: string[]): Promise<string[]> {
  const rows = await getSql()<{ table_name: string }[]>`
    select table_name from information_schema.columns
    where table_schema = current_schema() and column_name = any(${columns})
    group by table_name having count(*) = ${columns.length} order by table_name`;
  return rows.map((r) => r.table_name);
}

export type EmbeddedRow = { id: string; content: string; embedding: number[] };

/**
 * A sample of a table's embedded rows: the `highest` greatest ids (a re-embedding walks ids upwards,
 * so rows it had not reached when it was cut off are among these) and `random` others.
 */
export async function sampleEmbeddedRows(table: string, highest: number, random: number): Promise<EmbeddedRow[]> {
  const sql = getSql();
  // The sample is chosen by id alone (the highest through the primary key), and only its rows' vectors are read.
  const rows = await sql<{ id: string; content: string; embedding: string }[]>`
    select id::text as id, content, embedding::text as embedding from ${sql(table)} where id in (
      (select id from ${sql(table)} where embedding is not null order by id desc limit ${highest})
      union
      (select id from ${sql(table)} where embedding is not null order by random() limit ${random}))`;
  return rows.map((r) => ({ id: r.id, content: r.content, embedding: JSON.parse(r.embedding) as number[] }));
}

/** The lowest id: a re-embedding's cursor before its first row. */
export const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/** The next `limit` embedded rows with an id above `after`, in id order (the primary key's): a re-embedding's cursor. */
export async function embeddedRowsAfter(table: string, after: string, limit: number): Promise<Array<{ id: string; content: string }>> {
  const sql = getSql();
  return sql<{ id: string; content: string }[]>`
    select id::text as id, content from ${sql(table)}
    where embedding is not null and id > ${after}::uuid order by id limit ${limit}`;
}

/** Replaces rows' vectors, in one statement. */
export async function setEmbeddings(table: string, rows: Array<{ id: string; embedding: number[] }>): Promise<void> {
  if (rows.length === 0) return;
  const sql = getSql();
  const values = rows.map((r) => [r.id, toVectorLiteral(r.embedding)]);
  await sql`
    update ${sql(table)} t set embedding = v.embedding::vector
    from (values ${sql(values)}) as v(id, embedding)
    where t.id = v.id::uuid`;
}
