import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { createConversation } from '@/db/conversations';
import {
  deleteMessages,
  insertQuestionAndPlaceholder,
  listMessages,
  loadRecentMessages,
  putUserMessage,
  reopenLastReply,
  type Scope,
} from '@/db/history';
import { conversations, jobs, messages } from '@/db/schema';
import { createGuestUser } from '@/db/users';

/** Seeds a conversation with messages a1..aN (alternating user/assistant) and returns their ids by label. */
async function seed(labels: string[]): Promise<{ scope: Scope; ids: Record<string, string> }> {
  const user = await createGuestUser();
  const conversation = await createConversation(user.id);
  const scope = { userId: user.id, conversationId: conversation.id };
  const ids: Record<string, string> = {};
  for (const [i, label] of labels.entries()) {
    const [row] = await getDb()
      .insert(messages)
      .values({ ...scope, role: i % 2 === 0 ? 'user' : 'assistant', content: label })
      .returning();
    ids[label] = row.id;
  }
  return { scope, ids };
}

type Op =
  | { op: 'append'; content: string }
  | { op: 'replace'; target: string; content: string }
  | { op: 'remove'; target: string }
  | { op: 'removeAll' }
  | { op: 'regenerate' };

const table: Array<{ name: string; start: string[]; ops: Op[]; expected: string[] }> = [
  { name: 'append to an empty conversation', start: [], ops: [{ op: 'append', content: 'q1' }], expected: ['q1'] },
  { name: 'append after a reply', start: ['q1', 'r1'], ops: [{ op: 'append', content: 'q2' }], expected: ['q1', 'r1', 'q2'] },
  {
    name: 'replace the last user message',
    start: ['q1', 'r1', 'q2'],
    ops: [{ op: 'replace', target: 'q2', content: 'q2*' }],
    expected: ['q1', 'r1', 'q2*'],
  },
  {
    name: 'replace the first user message discards everything after it',
    start: ['q1', 'r1', 'q2', 'r2'],
    ops: [{ op: 'replace', target: 'q1', content: 'q1*' }],
    expected: ['q1*'],
  },
  {
    name: 'replace in the middle keeps what came before',
    start: ['q1', 'r1', 'q2', 'r2', 'q3', 'r3'],
    ops: [{ op: 'replace', target: 'q2', content: 'q2*' }],
    expected: ['q1', 'r1', 'q2*'],
  },
  {
    name: 'replace then append',
    start: ['q1', 'r1'],
    ops: [
      { op: 'replace', target: 'q1', content: 'q1*' },
      { op: 'append', content: 'q2' },
    ],
    expected: ['q1*', 'q2'],
  },
  {
    name: 'remove one message keeps the rest in order',
    start: ['q1', 'r1', 'q2', 'r2'],
    ops: [{ op: 'remove', target: 'r1' }],
    expected: ['q1', 'q2', 'r2'],
  },
  { name: 'remove the only message', start: ['q1'], ops: [{ op: 'remove', target: 'q1' }], expected: [] },
  { name: 'remove all', start: ['q1', 'r1', 'q2'], ops: [{ op: 'removeAll' }], expected: [] },
  { name: 'remove all then append', start: ['q1', 'r1'], ops: [{ op: 'removeAll' }, { op: 'append', content: 'q9' }], expected: ['q9'] },
  {
    name: 'regenerate reopens the reply to the last question in place, emptied',
    start: ['q1', 'r1', 'q2', 'r2'],
    ops: [{ op: 'regenerate' }],
    expected: ['q1', 'r1', 'q2', ''],
  },
  {
    name: 'regenerate with no reply yet changes nothing',
    start: ['q1', 'r1', 'q2'],
    ops: [{ op: 'regenerate' }],
    expected: ['q1', 'r1', 'q2'],
  },
];

describe('history ruled by message ids', () => {
  it.each(table)('$name', async ({ start, ops, expected }) => {
    const { scope, ids } = await seed(start);
    for (const step of ops) {
      if (step.op === 'append') await putUserMessage(getDb(), scope, { content: step.content });
      if (step.op === 'replace') {
        const replaced = await putUserMessage(getDb(), scope, { id: ids[step.target], content: step.content });
        expect(replaced.id).toBe(ids[step.target]);
      }
      if (step.op === 'remove') expect(await deleteMessages(getDb(), scope, [ids[step.target]])).toBe(1);
      if (step.op === 'removeAll')
        await deleteMessages(
          getDb(),
          scope,
          (await listMessages(scope)).map((m) => m.id),
        );
      if (step.op === 'regenerate') {
        const { reply } = await reopenLastReply(getDb(), scope, 'model');
        // The reply keeps its id: what is bound to it (feedback, citations, records) stays valid.
        if (reply) expect(reply.id).toBe(ids.r2);
      }
    }
    expect((await listMessages(scope)).map((m) => m.content)).toEqual(expected);
  });

  it("a new message gets an id of the server's: a client's unused id, or an id from another conversation, is not taken", async () => {
    const { scope } = await seed([]);
    const other = await seed(['elsewhere']);
    for (const id of [crypto.randomUUID(), other.ids.elsewhere]) {
      const appended = await putUserMessage(getDb(), scope, { id, content: 'hi' });
      expect(appended.id).not.toBe(id);
      expect(appended.conversationId).toBe(scope.conversationId);
    }
    expect((await listMessages(other.scope)).map((m) => m.content)).toEqual(['elsewhere']);
  });

  it('operations on one conversation leave the others alone', async () => {
    const a = await seed(['a1', 'ar1']);
    const b = await seed(['b1', 'br1']);
    await deleteMessages(
      getDb(),
      a.scope,
      (await listMessages(a.scope)).map((m) => m.id),
    );
    expect(await deleteMessages(getDb(), a.scope, [b.ids.b1])).toBe(0);
    expect((await listMessages(b.scope)).map((m) => m.content)).toEqual(['b1', 'br1']);
  });

  it('regenerating an empty conversation is refused', async () => {
    const { scope } = await seed([]);
    await expect(reopenLastReply(getDb(), scope, 'model')).rejects.toThrow('no user message');
  });

  it("a new question and its reply's placeholder are stored by one statement: in order, with the reply's jobs, the conversation touched", async () => {
    const { scope, ids } = await seed(['q1', 'r1']);
    const touchedAt = async () =>
      (await getDb().select({ at: conversations.updatedAt }).from(conversations).where(eq(conversations.id, scope.conversationId)))[0].at;
    const before = await touchedAt();
    const { question, placeholder } = await insertQuestionAndPlaceholder(
      scope,
      { content: '我的猫叫团子，它三岁了。' },
      { model: 'a-model', jobKinds: ['index_episode', 'extract_facts'] },
    );
    expect(question).toMatchObject({ ...scope, role: 'user', status: 'complete', content: '我的猫叫团子，它三岁了。' });
    expect(placeholder).toMatchObject({
      ...scope,
      role: 'assistant',
      status: 'streaming',
      content: '',
      replyTo: question.id,
      model: 'a-model',
    });
    expect((await listMessages(scope)).map((m) => m.id)).toEqual([ids.q1, ids.r1, question.id, placeholder.id]);
    const queued = await getDb()
      .select({ kind: jobs.kind, status: jobs.status })
      .from(jobs)
      .where(eq(jobs.messageId, placeholder.id))
      .orderBy(jobs.seq);
    expect(queued).toEqual([
      { kind: 'index_episode', status: 'pending' },
      { kind: 'extract_facts', status: 'pending' },
    ]);
    expect((await touchedAt()).getTime()).toBeGreaterThan(before.getTime());
  });
});

describe('the recent window', () => {
  it('is the last N messages in order, chosen by a LIMIT in SQL', async () => {
    const labels = Array.from({ length: 30 }, (_, i) => `m${i}`);
    const { scope, ids } = await seed(labels);
    const window = await loadRecentMessages(scope, 5);
    expect(window.map((m) => m.content)).toEqual(['m25', 'm26', 'm27', 'm28', 'm29']);
    const withoutLast = await loadRecentMessages(scope, 3, [ids.m29]);
    expect(withoutLast.map((m) => m.content)).toEqual(['m26', 'm27', 'm28']);
  });
});
