import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { GET as auditLog } from '@/app/api/staff/audit/route';
import { GET as staffConversation } from '@/app/api/staff/conversations/[id]/route';
import { DELETE as staffDeleteFact, PATCH as staffEditFact } from '@/app/api/staff/facts/[id]/route';
import { POST as retryJob } from '@/app/api/staff/jobs/[id]/retry/route';
import { GET as staffJobs } from '@/app/api/staff/jobs/route';
import { GET as staffTurn } from '@/app/api/staff/messages/[id]/context/route';
import { GET as staffMessage } from '@/app/api/staff/messages/[id]/route';
import { GET as staffUser } from '@/app/api/staff/users/[id]/route';
import { GET as staffUsers } from '@/app/api/staff/users/route';
import { getSql } from '@/db/client';
import { previewContext } from '@/lib/memory/context/preview';
import { params, readChunks } from '@/tests/support/app';
import { browser, member } from '@/tests/support/auth';
import { importTurns, postTurnSettled } from '@/tests/support/memory';

describe('the staff console API', () => {
  it('staff find a user, read a turn (audited), edit a fact with a reason, and the audit log shows it', async () => {
    const staff = await member({ staff: true });
    const user = await member();
    const [{ id: userId }] = await getSql()`select id from users where email = ${user.email}`;
    const conversationId = await importTurns(userId, [['My favourite director is Daniel Okafor.', 'Noted.']]);
    const chunks = await readChunks(
      await chat(user.request('/api/chat', { body: { conversationId, message: { text: 'Who is my favourite director?' } } })),
    );
    const replyId = chunks.find((c) => c.type === 'start')!.messageId as string;
    await postTurnSettled(userId);

    const found = await (await staffUsers(staff.request(`/api/staff/users?q=${encodeURIComponent(user.email)}`))).json();
    expect(found.users.map((u: { id: string }) => u.id)).toEqual([userId]);
    expect(found.users[0]).toMatchObject({ conversations: 1, facts: 1 });
    // A guest has no email: the id of one of their conversations (from its address) finds them, as does a message's.
    for (const id of [conversationId, replyId, userId]) {
      const byId = await (await staffUsers(staff.request(`/api/staff/users?q=${id}`))).json();
      expect(byId.users.map((u: { id: string }) => u.id)).toEqual([userId]);
    }
    expect(
      (await (await staffUsers(staff.request('/api/staff/users?q=%25'))).json()).users.every(
        (u: { email: string | null; displayName: string | null }) => `${u.email}${u.displayName}`.includes('%'),
      ),
    ).toBe(true);
    const overview = await (await staffUser(staff.request(`/api/staff/users/${userId}`), params({ id: userId }))).json();
    expect(overview.conversations.map((c: { id: string }) => c.id)).toContain(conversationId);
    const conversation = await (
      await staffConversation(staff.request(`/api/staff/conversations/${conversationId}`), params({ id: conversationId }))
    ).json();
    expect(conversation.messages.length).toBeGreaterThan(2);
    const turn = await (await staffTurn(staff.request(`/api/staff/messages/${replyId}/context`), params({ id: replyId }))).json();
    expect(turn.context.question.text).toBe('Who is my favourite director?');
    // Source links in the console: where any message lives.
    const located = await (await staffMessage(staff.request(`/api/staff/messages/${replyId}`), params({ id: replyId }))).json();
    expect(located.message).toEqual({ id: replyId, userId, conversationId, role: 'assistant' });

    const fact = overview.facts.find((f: { content: string }) => f.content.includes('Okafor'));
    const noReason = await staffEditFact(
      staff.request(`/api/staff/facts/${fact.id}`, { method: 'PATCH', body: { content: 'My favourite director is Agnès Varda' } }),
      params({ id: fact.id }),
    );
    expect(noReason.status).toBe(400);
    const edited = await staffEditFact(
      staff.request(`/api/staff/facts/${fact.id}`, {
        method: 'PATCH',
        body: { content: 'My favourite director is Agnès Varda', reason: 'user asked by email (ticket 42)' },
      }),
      params({ id: fact.id }),
    );
    expect(edited.status).toBe(200);
    const state = await previewContext({ userId, conversationId }, 'Who is my favourite director?');
    expect(state.system).toContain('Agnès Varda');

    const entries = (await (await auditLog(staff.request(`/api/staff/audit?targetUserId=${userId}`))).json()).entries as Array<
      Record<string, unknown>
    >;
    expect(entries.find((e) => e.objectType === 'fact' && e.action === 'edit')).toMatchObject({
      actorRole: 'staff',
      reason: 'user asked by email (ticket 42)',
      before: { content: fact.content },
    });
    for (const objectType of ['user', 'conversation', 'turn_record', 'message'])
      expect(entries.some((e) => e.objectType === objectType && e.action === 'read')).toBe(true);

    const jsonl = await (await auditLog(staff.request(`/api/staff/audit?targetUserId=${userId}&format=jsonl`))).text();
    expect(
      jsonl
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual(entries.map((e) => e.id));

    // "Any change" leaves out the reads.
    const changes = (await (await auditLog(staff.request(`/api/staff/audit?targetUserId=${userId}&action=changes`))).json())
      .entries as Array<Record<string, unknown>>;
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((e) => e.action !== 'read')).toBe(true);
    expect(changes.map((e) => e.id)).toEqual(entries.filter((e) => e.action !== 'read').map((e) => e.id));
    const deleted = await staffDeleteFact(
      staff.request(`/api/staff/facts/${fact.id}`, { method: 'DELETE', body: { reason: 'duplicate entry' } }),
      params({ id: fact.id }),
    );
    expect(deleted.status).toBe(200);
    expect(JSON.stringify((await previewContext({ userId, conversationId }, 'Who is my favourite director?')).system)).not.toContain(
      'Varda',
    );
  });

  it('lists failed jobs and retries one', async () => {
    const staff = await member({ staff: true });
    const user = await member();
    const [{ id: userId }] = await getSql()`select id from users where email = ${user.email}`;
    await importTurns(userId, [['I live in Oslo.', 'Nice.']]);
    const [job] = await getSql()`select id from jobs where user_id = ${userId} and kind = 'index_episode'`;
    // Its retry an hour away: this process's worker would otherwise claim it while the test reads it.
    await getSql()`update jobs set status = 'failed', attempts = 5, last_error = 'embedder timed out', run_after = now() + interval '1 hour' where id = ${job.id}`;
    await getSql()`delete from episodes where user_id = ${userId}`;
    const listed = await (await staffJobs(staff.request(`/api/staff/jobs?status=failed&userId=${userId}`))).json();
    const failed = listed.jobs;
    const [counted] = await getSql()`select count(*)::int as n from jobs where user_id = ${userId}`;
    expect(listed.counts.failed).toBe(1);
    expect(Object.values(listed.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(counted.n);
    expect(failed.map((j: { id: string }) => j.id)).toEqual([job.id]);
    const retried = (
      await (await retryJob(staff.request(`/api/staff/jobs/${job.id}/retry`, { method: 'POST' }), params({ id: job.id }))).json()
    ).job;
    expect(retried.status).toBe('done');
    expect(await getSql()`select 1 from episodes where user_id = ${userId}`).toHaveLength(1);
  });

  it('a user gets 403 on every staff route, a signed-out caller 401', async () => {
    const user = await member();
    const anonymous = browser();
    const id = crypto.randomUUID();
    const calls: Array<(b: ReturnType<typeof browser>) => Promise<Response>> = [
      (b) => staffUsers(b.request('/api/staff/users?q=a')),
      (b) => staffUser(b.request(`/api/staff/users/${id}`), params({ id })),
      (b) => staffConversation(b.request(`/api/staff/conversations/${id}`), params({ id })),
      (b) => staffTurn(b.request(`/api/staff/messages/${id}/context`), params({ id })),
      (b) =>
        staffEditFact(b.request(`/api/staff/facts/${id}`, { method: 'PATCH', body: { content: 'x', reason: 'why not' } }), params({ id })),
      (b) => staffJobs(b.request('/api/staff/jobs')),
      (b) => auditLog(b.request('/api/staff/audit')),
    ];
    for (const call of calls) {
      expect((await call(user)).status).toBe(403);
      expect((await call(anonymous)).status).toBe(401);
    }
  });
});
