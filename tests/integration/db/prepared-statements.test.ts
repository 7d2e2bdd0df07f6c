import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';
import { createGuestUser } from '@/db/users';

// drizzle sends its statements unprepared unless named, and each one with parameters then costs two
// round trips and a parse every time; db/client.ts has them prepared on their connection instead.
describe('statements sent through drizzle', () => {
  it('are prepared once on their connection and reused, in and out of transactions', async () => {
    const user = await createGuestUser();
    await getDb().transaction(async (tx) => {
      // A transaction holds one connection: what it prepared is visible in pg_prepared_statements there.
      const probe = () => tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).limit(1).for('share', { skipLocked: true });
      for (let i = 0; i < 3; i++) expect((await probe())[0]?.id).toBe(user.id);
      const prepared = await tx.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_prepared_statements where statement like '%skip locked%' and statement like '%from "users"%'`,
      );
      expect(prepared[0].n).toBe(1);
    });
  });

  it('still answer for the values given on each run (planned for their parameters)', async () => {
    const [a, b] = [await createGuestUser(), await createGuestUser()];
    for (const user of [a, b, a]) {
      const [row] = await getDb().select({ id: users.id }).from(users).where(eq(users.id, user.id));
      expect(row.id).toBe(user.id);
    }
    const [setting] = await getDb().execute<{ plan_cache_mode: string }>(sql`show plan_cache_mode`);
    expect(setting.plan_cache_mode).toBe('force_custom_plan');
  });
});
