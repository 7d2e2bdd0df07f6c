import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { GET as auditLog } from '@/app/api/staff/audit/route';
import { GET as staffConversation } from '@/app/api/staff/conversations/[id]/route';
import { GET as staffJobs } from '@/app/api/staff/jobs/route';
import { GET as staffTurn } from '@/app/api/staff/messages/[id]/context/route';
import { POST as staffReplay } from '@/app/api/staff/messages/[id]/replay/route';
import { GET as staffMessage } from '@/app/api/staff/messages/[id]/route';
import { getSql } from '@/db/client';
import { STAFF_VIEW_HEADER } from '@/lib/shared/staff-header';
import { params, readChunks } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

// The staff console's routes as the console calls them: the audit log filtered by email (kept as
// typed, refused when no user has it) and naming people by email; the reads of one view audited once;
// jobs a page at a time with their conversation; replay as stored.

type Entry = {
  id: number;
  action: string;
  objectType: string;
  actorUserId: string | null;
  targetUserId: string | null;
  actorEmail: string | null;
  targetEmail: string | null;
  targetKind: string | null;
};

async function userWithReplies() {
  const user = await member();
  const [{ id: userId }] = await getSql()`select id from users where email = ${user.email}`;
  const conversationId = await importTurns(userId, [['My allotment in Leeds grows rhubarb.', 'Lovely.']], 'Allotment');
  const replies: string[] = [];
  for (const text of ['What grows on my allotment?', '我的菜园在哪里？']) {
    const chunks = await readChunks(await chat(user.request('/api/chat', { body: { conversationId, message: { text } } })));
    replies.push(chunks.find((c) => c.type === 'start')!.messageId as string);
  }
  await postTurnSettled(userId);
  return { user, userId, conversationId, replies };
}

const entriesAbout = async (staff: Awaited<ReturnType<typeof member>>, query: string) => {
  const response = await auditLog(staff.request(`/api/staff/audit?${query}`));
  return { response, entries: response.status === 200 ? ((await response.json()).entries as Entry[]) : [] };
};

describe('the audit log named by email', () => {
  it('filters by an email as typed (any case), names actor and target by email, and refuses an email no user has', async () => {
    const staff = await member({ staff: true });
    const [{ id: staffId }] = await getSql()`select id from users where email = ${staff.email}`;
    const { user, userId, replies } = await userWithReplies();
    await staffTurn(staff.request(`/api/staff/messages/${replies[0]}/context`), params({ id: replies[0] }));

    const { entries } = await entriesAbout(staff, `targetUserId=${encodeURIComponent(user.email.toUpperCase())}`);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.targetUserId === userId)).toBe(true);
    const read = entries.find((e) => e.action === 'read' && e.objectType === 'turn_record')!;
    expect(read).toMatchObject({ actorUserId: staffId, actorEmail: staff.email, targetEmail: user.email, targetKind: 'member' });
    const byActor = await entriesAbout(staff, `actorUserId=${encodeURIComponent(staff.email)}&targetUserId=${userId}`);
    expect(byActor.entries.map((e) => e.id)).toContain(read.id);

    const before = await getSql()`select count(*)::int as n from audit_log`;
    const unknown = await entriesAbout(staff, 'targetUserId=nobody%40nowhere.test');
    expect(unknown.response.status).toBe(400);
    expect((await unknown.response.json()).error).toMatchObject({
      code: 'unknown_user',
      message: 'targetUserId: no user has the email nobody@nowhere.test.',
    });
    expect((await entriesAbout(staff, 'targetUserId=not-an-email')).response.status).toBe(400);
    expect(await getSql()`select count(*)::int as n from audit_log`).toEqual(before);
  });
});

describe('a view is audited once', () => {
  it('the reads of one view (conversation, turn records, message locations) are one entry; a new view, or a read with no view, is its own', async () => {
    const staff = await member({ staff: true });
    const { userId, conversationId, replies } = await userWithReplies();
    const reads = async () =>
      (
        await getSql()`select object_type, object_id, after from audit_log where target_user_id = ${userId} and action = 'read' order by id`
      ).map((row) => ({
        objectType: row.object_type as string,
        objectId: row.object_id as string,
        after: row.after as { view?: string } | null,
      }));
    const inView = (view: string) => ({ headers: { [STAFF_VIEW_HEADER]: view } });

    const page = crypto.randomUUID();
    expect(
      (await staffConversation(staff.request(`/api/staff/conversations/${conversationId}`, inView(page)), params({ id: conversationId })))
        .status,
    ).toBe(200);
    // Opening a turn record on the page: its record, the other replies' records and the source links, concurrently.
    await Promise.all([
      ...replies.map((id) => staffTurn(staff.request(`/api/staff/messages/${id}/context`, inView(page)), params({ id }))),
      ...replies.map((id) => staffMessage(staff.request(`/api/staff/messages/${id}`, inView(page)), params({ id }))),
    ]);
    expect(await reads()).toEqual([{ objectType: 'conversation', objectId: conversationId, after: { view: page } }]);

    const next = crypto.randomUUID();
    await staffTurn(staff.request(`/api/staff/messages/${replies[1]}/context`, inView(next)), params({ id: replies[1] }));
    await staffTurn(staff.request(`/api/staff/messages/${replies[0]}/context`, inView(next)), params({ id: replies[0] }));
    expect((await reads()).map((r) => r.after?.view)).toEqual([page, next]);

    // Without a view, every read is written (a script's calls); another staff member's view is theirs.
    await staffTurn(staff.request(`/api/staff/messages/${replies[0]}/context`), params({ id: replies[0] }));
    await staffTurn(staff.request(`/api/staff/messages/${replies[0]}/context`), params({ id: replies[0] }));
    const other = await member({ staff: true });
    await staffTurn(other.request(`/api/staff/messages/${replies[0]}/context`, inView(next)), params({ id: replies[0] }));
    expect((await reads()).length).toBe(5);
  });
});

describe('jobs', () => {
  it('come a page at a time, newest first, each with its conversation and its owner, every job once', async () => {
    const staff = await member({ staff: true });
    const user = await member();
    const [{ id: userId }] = await getSql()`select id from users where email = ${user.email}`;
    const conversationId = await importTurns(userId, fillerTurns(45), 'Chores, step by step');
    await postTurnSettled(userId);
    const [{ n: total }] = await getSql()`select count(*)::int as n from jobs where user_id = ${userId}`;
    expect(total).toBeGreaterThan(100);

    type Page = {
      jobs: Array<{ id: string; seq: number; conversationId: string; conversationTitle: string; userEmail: string }>;
      next: number | null;
      counts: Record<string, number>;
    };
    const seen: Page['jobs'] = [];
    let before: number | null | undefined;
    for (let pages = 0; before !== null && pages < 5; pages++) {
      const response = await staffJobs(staff.request(`/api/staff/jobs?userId=${userId}${before ? `&before=${before}` : ''}`));
      expect(response.status).toBe(200);
      const page = (await response.json()) as Page;
      seen.push(...page.jobs);
      before = page.next;
    }
    expect(before).toBeNull();
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((job) => job.id)).size).toBe(total);
    expect(seen.map((job) => job.seq)).toEqual([...seen.map((job) => job.seq)].sort((a, b) => b - a));
    expect(seen[0]).toMatchObject({ conversationId, conversationTitle: 'Chores, step by step', userEmail: user.email });
    expect((await staffJobs(staff.request(`/api/staff/jobs?before=0`))).status).toBe(400);
  });
});

describe('replay as stored', () => {
  it('the staff replay gives the context as it was stored, and refuses settings with it', async () => {
    const staff = await member({ staff: true });
    const { replies } = await userWithReplies();
    const id = replies[0];
    const stored = await staffReplay(staff.request(`/api/staff/messages/${id}/replay`, { body: { mode: 'stored' } }), params({ id }));
    expect(stored.status).toBe(200);
    const result = await stored.json();
    expect(result.options.mode).toBe('stored');
    expect(result.replay.total).toBe(result.stored.total);
    expect(result.diff).toMatchObject({ added: [], removed: [], changed: [] });
    const refused = await staffReplay(
      staff.request(`/api/staff/messages/${id}/replay`, { body: { mode: 'stored', budget: 900 } }),
      params({ id }),
    );
    expect(refused.status).toBe(400);
  });
});
