import { describe, expect, it } from 'vitest';
import { openPostgres } from '@/db/postgres-url';
import { EMBEDDING_SIZE } from '@/db/schema';
import { applyMigration, emptyDatabase, migrateUpTo } from '@/tests/support/own-database';

// Migration 0017 puts the rows of the users already past the bound into the HNSW graph, and no one
// else's: applied to a database holding a large and a small user as the earlier schema held them.

const MIGRATION = '0017_graph_per_user.sql';

describe('migration 0017', () => {
  it("moves the rows of users with more than 2,000 rows of a table into its graph, per table, and nobody else's", {
    timeout: 120_000,
  }, async () => {
    const database = await emptyDatabase('memlens_graph');
    const sql = openPostgres(database.url, { max: 1, onnotice: () => {} });
    try {
      await migrateUpTo(sql, MIGRATION);
      const [large, small] = await sql`insert into users (kind) values ('guest'), ('guest') returning id`;
      const vector = `[${Array.from({ length: EMBEDDING_SIZE }, (_, i) => (i === 0 ? 1 : 0)).join(',')}]`;
      const facts = (userId: string, count: number) => sql`
        insert into facts (user_id, slot, content, value, embedding)
        select ${userId}, 'statement', 'note ' || i, 'x', ${vector}::vector from generate_series(1, ${count}) i`;
      await facts(large.id, 2001);
      await facts(small.id, 2000);
      await applyMigration(sql, MIGRATION);
      const rows = await sql`select user_id, in_graph, count(*)::int as n from facts group by 1, 2 order by n desc`;
      expect(rows.map((r) => ({ large: r.user_id === large.id, inGraph: r.in_graph, n: r.n }))).toEqual([
        { large: true, inGraph: true, n: 2001 },
        { large: false, inGraph: false, n: 2000 },
      ]);
      // From now on the database keeps it: the small user's next row takes them past the bound.
      await facts(small.id, 1);
      const [after] = await sql`select bool_and(in_graph) as all_in from facts where user_id = ${small.id}`;
      expect(after.all_in).toBe(true);
    } finally {
      await sql.end();
      await database.stop();
    }
  });
});
