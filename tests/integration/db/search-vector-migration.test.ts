import { sql as query } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import { describe, expect, it } from 'vitest';
import { openPostgres } from '@/db/postgres-url';
import { searchVector } from '@/db/search-vector';
import { isCjk } from '@/lib/text/search-terms';
import { applyMigration, emptyDatabase, migrateUpTo } from '@/tests/support/own-database';

// The migration to full-text search computes each existing row's tsvector in SQL from its text and
// the CJK entries of its old term array: the result must be what the application writes for the
// same text, or old and new rows would be found differently. Its own database: applied up to the
// migration before, rows written as the old code wrote them, then the migration.

const MIGRATION = '0016_full_text_search.sql';

describe('migration 0016', () => {
  it("backfills each row's search vector exactly as the application writes it, then drops the old terms", {
    timeout: 120_000,
  }, async () => {
    const database = await emptyDatabase('memlens_fts');
    const sql = openPostgres(database.url, { max: 1, onnotice: () => {} });
    try {
      await migrateUpTo(sql, MIGRATION);
      // Texts with their terms as the old stemmer wrote them: stemmed words, then CJK words and bigrams.
      const old: Array<[string, string[]]> = [
        [
          'My sisters teach violin; 我住在北京市的朝阳区。',
          [
            'my',
            'sister',
            'teach',
            'violin',
            '我',
            '住在',
            '北京市',
            '的',
            '朝阳',
            '区',
            '我住',
            '在北',
            '北京',
            '京市',
            '市的',
            '的朝',
            '阳区',
          ],
        ],
        ['周末去颐和园划船', ['周末', '去', '颐和园', '划船', '末去', '去颐', '颐和', '和园', '园划']],
        ['Nothing but English here, running late.', ['nothing', 'but', 'english', 'here', 'runn', 'late']],
      ];
      const [user] = await sql`insert into users default values returning id`;
      for (const [content, terms] of old) {
        await sql`insert into facts (user_id, slot, content, value, search_terms) values (${user.id}, 'statement', ${content}, ${content}, ${terms})`;
      }

      await applyMigration(sql, MIGRATION);

      const db = drizzle(sql);
      // As the application wrote them with the segmenter of the time (Intl.Segmenter cut 住在; jieba cuts 住, 在):
      // the start-up re-index (lib/memory/search-index-sync.ts) brings such rows to today's terms.
      for (const [content, terms] of old) {
        const [row] = await db.execute<{ backfilled: string; written: string }>(
          query`select f.search_vector::text as backfilled, ${searchVector(content, terms.filter(isCjk))}::text as written
                from facts f where f.content = ${content}`,
        );
        expect(row.backfilled, content).toBe(row.written);
      }
      // Found by Snowball's stems now ("running" is "run"; the old terms had "runn").
      const [running] = await sql`select content from facts where search_vector @@ to_tsquery('english', 'runs')`;
      expect(running.content).toContain('running');
      const [sisters] = await sql`select content from facts where search_vector @@ 'sister'::tsquery and search_vector @@ '北京'::tsquery`;
      expect(sisters.content).toContain('北京市');
      const columns = await sql`select table_name from information_schema.columns where column_name = 'search_terms'`;
      expect(columns).toEqual([]);
      const indexes = await sql`select indexname from pg_indexes where indexname like '%search_vector_idx' order by 1`;
      expect(indexes.map((index) => index.indexname)).toEqual(['episodes_user_search_vector_idx', 'facts_user_search_vector_idx']);
    } finally {
      await sql.end({ timeout: 5 });
      await database.stop();
    }
  });
});
