import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { getSql } from '@/db/client';
import { migrationsFolder } from '@/db/migrate';
import { newClient, readChunks } from '@/tests/support/app';
import { postTurnSettled } from '@/tests/support/memory';
import { withOwnDatabase } from '@/tests/support/own-database';

// Before errors were summarised, a failed job kept the whole error: a failed query's SQL and its
// parameters (what the user wrote). Migration 0014 removes every such stored text. Its own database:
// the statement touches every job's error, and files running beside this one keep theirs.
withOwnDatabase();

describe('migration 0014', () => {
  it("removes job errors stored before errors were summarised, with the user's words in them", async () => {
    const sql = getSql();
    const client = await newClient();
    const user = client.user;
    const conversationId = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation
      .id;
    const words = 'my neighbour Oskar still owes me forty euros';
    await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text: `Remember: ${words}.` } } })));
    await postTurnSettled(user.id);
    // A job as the old code left it when its query failed its last attempt. Dead, not failed: a failed
    // job is due again, and this process's worker would claim it while the test reads it.
    const oldError = `Failed query: insert into "episodes" ... params: ${user.id},${words}\n    at PostgresJsPreparedQuery.queryWithCache (node_modules/drizzle-orm/...)`;
    await sql`update jobs set status = 'dead', last_error = ${oldError} where user_id = ${user.id} and kind = 'index_episode'`;

    await sql.unsafe(readFileSync(path.join(migrationsFolder, '0014_redact_job_errors.sql'), 'utf8'));

    const [job] = await sql`select status, last_error from jobs where user_id = ${user.id} and kind = 'index_episode'`;
    expect(job.status).toBe('dead');
    expect(job.last_error).not.toContain(words);
    expect(job.last_error).not.toContain(user.id);
    expect(job.last_error).toMatch(/removed by migration 0014/u);
  });
});
