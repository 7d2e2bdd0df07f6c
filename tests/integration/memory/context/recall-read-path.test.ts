import { drizzle } from 'drizzle-orm/postgres-js';
import type postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { type Db, getSql } from '@/db/client';
import { listMessages, positionOfMessage } from '@/db/history';
import { openPostgres } from '@/db/postgres-url';
import * as schema from '@/db/schema';
import { getSummary, writeSummary } from '@/db/summaries';
import { createGuestUser } from '@/db/users';
import { SESSION_SETTINGS } from '@/db/vector';
import { previewContext } from '@/lib/memory/context/preview';
import { fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

// The read path of a turn at scale: a few statements, none of them a SET or a transaction, and
// vectors a search can read without a TOAST lookup per candidate.

type Pool = { sql: postgres.Sql; db: Db; url: string };

/** The statements `work` sends, through a pool like the app's that records them (db/client.ts keeps its pool on globalThis). */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const holder = globalThis as typeof globalThis & { __memlensPool?: Pool };
  const url = process.env.DATABASE_URL!;
  const statements: string[] = [];
  const sql = openPostgres(url, {
    max: 4,
    onnotice: () => {},
    connection: SESSION_SETTINGS,
    debug: (_connection, query) => statements.push(query),
  });
  const saved = holder.__memlensPool;
  holder.__memlensPool = { sql, db: drizzle(sql, { schema }), url };
  try {
    await work();
  } finally {
    holder.__memlensPool = saved;
    await sql.end();
  }
  return statements;
}

describe('the read path of a turn', () => {
  it('assembles a context with a summary, facts and episodes in a handful of statements, without SET or transactions', async () => {
    const user = await createGuestUser();
    const conversationId = await importTurns(user.id, [
      ['我在成都教小学数学，已经八年了。', '这份工作很有意义。'],
      ['My sister keeps three ferrets in her flat in Leeds.', 'Lively company.'],
      ...fillerTurns(8),
    ]);
    await postTurnSettled(user.id);
    // A summary covering the first turns, so the turn reads one (with its sources and coverage) too.
    const scope = { userId: user.id, conversationId };
    const first = (await listMessages(scope)).slice(0, 4);
    const last = await positionOfMessage(scope, first[3].id);
    const current = await getSummary(scope);
    await writeSummary(
      scope,
      {
        content: 'The user teaches maths in Chengdu; their sister keeps ferrets.',
        coveredMessageCount: 4,
        coveredUntil: last!,
        sourceMessageIds: first.map((m) => m.id),
        actor: 'test',
        action: 'edit',
      },
      current?.version ?? null,
    );

    let system = '';
    const statements = await statementsOf(async () => {
      system = (await previewContext({ userId: user.id, conversationId }, 'Where do my sister’s ferrets live?')).system;
    });
    expect(system).toContain('ferrets');
    expect(system).toContain('teaches maths in Chengdu');
    expect(statements.filter((s) => /^\s*(begin|commit|set\b)|set_config/iu.test(s))).toEqual([]);
    // The window with its redactions, withdrawn texts the replies quote, the rewrite cache, the facts
    // (sources and replacements included), two episode searches (this conversation, then the
    // others), the exchanges next to the best ones, and the summary with its sources and coverage:
    // nine at most.
    expect(statements.length).toBeLessThanOrEqual(9);
  });

  it('every session of the pool walks a filtered HNSW graph iteratively, with no SET per search', async () => {
    const [row] = await getSql()`select current_setting('hnsw.iterative_scan') as mode`;
    expect(row.mode).toBe('relaxed_order');
  });

  it('keeps vectors inline, so a search computes a candidate’s distance without a TOAST lookup', async () => {
    const rows = await getSql()`
      select c.relname as table, a.attstorage as storage from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relname in ('episodes', 'facts') and a.attname = 'embedding' order by 1`;
    expect(rows.map((r) => `${r.table}:${r.storage}`)).toEqual(['episodes:p', 'facts:p']);
  });
});
