import { getSql } from '@/db/client';

/**
 * Everything stored about some users, as a count and checksum per table: every table with a
 * `user_id` column (sessions aside: reads touch their last-seen time), their audit entries (as
 * actor or target) and their own rows in `users`. Equal fingerprints mean nothing was written.
 */
export async function fingerprint(userIds: string[]): Promise<Record<string, string>> {
  const sql = getSql();
  const tables = await userTables();
  const parts = [
    ...tables.map(
      (table) =>
        sql`select ${table} as name, count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${sql(table)} t where user_id::text = any(${userIds})`,
    ),
    sql`select 'audit_log' as name, count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from audit_log t where target_user_id::text = any(${userIds}) or actor_user_id::text = any(${userIds})`,
    sql`select 'users' as name, count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from users t where id::text = any(${userIds})`,
  ];
  const query = parts.reduce((all, part) => sql`${all} union all ${part}`);
  const rows = await query;
  return Object.fromEntries(rows.map((row) => [row.name, `${row.n} rows, ${row.sum}`]));
}

let cachedTables: string[] | undefined;

async function userTables(): Promise<string[]> {
  cachedTables ??= (
    await getSql()`select table_name from information_schema.columns where table_schema = 'public' and column_name = 'user_id' and table_name <> 'sessions' order by table_name`
  ).map((row) => row.table_name as string);
  return cachedTables;
}
