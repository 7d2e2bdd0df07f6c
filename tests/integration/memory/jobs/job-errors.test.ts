import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { GET as staffJobs } from '@/app/api/staff/jobs/route';
import { getSql } from '@/db/client';
import { newClient, readChunks } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { postTurnSettled } from '@/tests/support/memory';

// What a user wrote, in a post-turn job whose query fails: a failed job keeps why, never the SQL or its parameters.
const MARKER = 'diary-entry-5d0e-kept-out-of-jobs';

beforeAll(async () => {
  // The database refuses this user's episode, as a broken index or a full disk would: its job fails on a real query error.
  await getSql().unsafe(`
    create function refuse_marked_episodes() returns trigger language plpgsql as $$
    begin
      if new.content like '%${MARKER}%' then raise exception 'refused by the test'; end if;
      return new;
    end $$;
    create trigger refuse_marked_episodes before insert on episodes for each row execute function refuse_marked_episodes();`);
});
afterAll(async () => {
  await getSql().unsafe('drop trigger refuse_marked_episodes on episodes; drop function refuse_marked_episodes();');
});

async function failedTurn() {
  const client = await newClient();
  const created = await createConversation(client.request('/api/conversations', { method: 'POST' }));
  const conversationId = (await created.json()).conversation.id as string;
  await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text: `Dear diary, ${MARKER}.` } } })));
  await postTurnSettled(client.user.id);
  const [job] = await getSql()`select id, status, last_error from jobs where user_id = ${client.user.id} and kind = 'index_episode'`;
  return { userId: client.user.id, job };
}

describe('failed post-turn jobs', () => {
  it('keep the error by its kind and message: no SQL, no parameter, no stack', async () => {
    const { userId, job } = await failedTurn();
    expect(job.status).toBe('failed');
    const stored = job.last_error as string;
    expect(stored).toContain('DrizzleQueryError');
    expect(stored).toContain('refused by the test');
    expect(stored).toContain('P0001');
    expect(stored).not.toContain(MARKER);
    expect(stored).not.toContain(userId);
    expect(stored).not.toMatch(/insert into|params:|\bat .*\.(?:ts|js):\d+/iu);
  });

  it("are staff reads of each owner's data: listing them writes an audit entry per user shown", async () => {
    const { userId, job } = await failedTurn();
    const staff = await member({ staff: true });
    const listed = await staffJobs(staff.request('/api/staff/jobs?status=failed'));
    expect(listed.status).toBe(200);
    expect((await listed.json()).jobs.map((j: { id: string }) => j.id)).toContain(job.id);
    const [{ id: staffId }] = await getSql()`select id from users where email = ${staff.email}`;
    const entries = await getSql()`
      select actor_role, object_type, object_id, action from audit_log
      where actor_user_id = ${staffId} and target_user_id = ${userId}`;
    expect(entries).toEqual([{ actor_role: 'staff', object_type: 'jobs', object_id: userId, action: 'read' }]);
  });
});
