import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { GET as listMessages } from '@/app/api/conversations/[id]/messages/route';
import { PATCH as editFact, GET as factOf } from '@/app/api/facts/[id]/route';
import { GET as turnContext } from '@/app/api/messages/[id]/context/route';
import { DELETE as staffDeleteFact, PATCH as staffEditFact } from '@/app/api/staff/facts/[id]/route';
import { getSql } from '@/db/client';
import { params, readChunks } from '@/tests/support/app';
import { member } from '@/tests/support/auth';
import { importTurns, postTurnSettled } from '@/tests/support/memory';

type HistoryEvent = { event: string; actor: string; reason: string | null; newContent: string | null };

describe("staff corrections read as staff's to the owner", () => {
  it("the owner's fact history and turn record name staff, with the reason staff gave", async () => {
    const staff = await member({ staff: true });
    const user = await member();
    const [{ id: userId }] = await getSql()`select id from users where email = ${user.email}`;
    const [{ id: staffId }] = await getSql()`select id from users where email = ${staff.email}`;
    const conversationId = await importTurns(userId, [
      ['I work as a carpenter in Porto.', 'Good to know.'],
      ['我养了一只猫，叫豆豆。', '好的。'],
    ]);
    await postTurnSettled(userId);
    const facts = await getSql()`select id, content from facts where user_id = ${userId} and status = 'active'`;
    const work = facts.find((f) => String(f.content).includes('carpenter'))!;
    const pet = facts.find((f) => String(f.content).includes('豆豆'))!;
    expect(work && pet).toBeTruthy();

    // A reply whose record recalled the cat, so deleting it later redacts that record.
    const chunks = await readChunks(
      await chat(user.request('/api/chat', { body: { conversationId, message: { text: '我的猫叫什么名字？' } } })),
    );
    const replyId = chunks.find((c) => c.type === 'start')!.messageId as string;
    await postTurnSettled(userId);

    const own = await editFact(
      user.request(`/api/facts/${work.id}`, { method: 'PATCH', body: { content: 'I work as a cabinet maker in Porto' } }),
      params({ id: work.id }),
    );
    expect(own.status).toBe(200);
    const byStaff = await staffEditFact(
      staff.request(`/api/staff/facts/${work.id}`, {
        method: 'PATCH',
        body: { content: 'I work as a furniture restorer in Porto', reason: 'the user wrote to support with the right trade' },
      }),
      params({ id: work.id }),
    );
    expect(byStaff.status).toBe(200);

    const history = (await (await factOf(user.request(`/api/facts/${work.id}`), params({ id: work.id }))).json()).history as HistoryEvent[];
    const edits = history.filter((e) => e.event === 'EDIT');
    expect(edits.map(({ actor, reason, newContent }) => ({ actor, reason, newContent }))).toEqual([
      { actor: `user:${userId}`, reason: null, newContent: 'I work as a cabinet maker in Porto' },
      {
        actor: `staff:${staffId}`,
        reason: 'the user wrote to support with the right trade',
        newContent: 'I work as a furniture restorer in Porto',
      },
    ]);
    // The memory that learned the fact reads as the model's or the rules', never as the user's or staff's.
    expect(history.find((e) => e.event === 'ADD')?.actor).not.toMatch(/^(user|staff):/u);

    const deleted = await staffDeleteFact(
      staff.request(`/api/staff/facts/${pet.id}`, { method: 'DELETE', body: { reason: '用户要求删除' } }),
      params({ id: pet.id }),
    );
    expect(deleted.status).toBe(200);
    const record = (await (await turnContext(user.request(`/api/messages/${replyId}/context`), params({ id: replyId }))).json())
      .context as { redactions: Array<{ by: string; reason: string }> };
    expect(record.redactions).toEqual([
      expect.objectContaining({ by: `staff:${staffId}`, reason: expect.stringContaining('用户要求删除') }),
    ]);
    expect(record.redactions[0].reason).not.toMatch(/staff:|[0-9a-f]{8}-/u); // words for people: no label, no id

    // The chat marks the statements as staff's changes, with staff's reason, never as the user's.
    const { messages } = await (
      await listMessages(user.request(`/api/conversations/${conversationId}/messages`), params({ id: conversationId }))
    ).json();
    const marksOf = (text: string) =>
      (messages as Array<{ content: string; marks: Array<{ kind: string; by: string; reason: string | null }> }>).find((m) =>
        m.content.includes(text),
      )!.marks;
    expect(marksOf('carpenter')).toEqual([
      expect.objectContaining({ kind: 'corrected', by: `staff:${staffId}`, reason: 'the user wrote to support with the right trade' }),
    ]);
    expect(marksOf('豆豆')).toEqual([expect.objectContaining({ kind: 'forgotten', by: `staff:${staffId}`, reason: '用户要求删除' })]);
  });

  it("an edit recorded under the staff member's user label before staff labels existed still reads as staff", async () => {
    const staff = await member({ staff: true });
    const user = await member();
    const [{ id: userId }] = await getSql()`select id from users where email = ${user.email}`;
    const [{ id: staffId }] = await getSql()`select id from users where email = ${staff.email}`;
    await importTurns(userId, [['I live in Tromsø.', 'Cold up there.']]);
    await postTurnSettled(userId);
    const [fact] = await getSql()`select id from facts where user_id = ${userId} and status = 'active'`;
    await staffEditFact(
      staff.request(`/api/staff/facts/${fact.id}`, {
        method: 'PATCH',
        body: { content: 'I live in Bodø', reason: 'moved, per phone call' },
      }),
      params({ id: fact.id }),
    );
    // As older rows were written: the staff member under their user label.
    await getSql()`update fact_events set actor = ${`user:${staffId}`} where fact_id = ${fact.id} and event = 'EDIT'`;
    const history = (await (await factOf(user.request(`/api/facts/${fact.id}`), params({ id: fact.id }))).json()).history as HistoryEvent[];
    expect(history.find((e) => e.event === 'EDIT')).toMatchObject({ actor: `staff:${staffId}`, reason: 'moved, per phone call' });
  });
});
