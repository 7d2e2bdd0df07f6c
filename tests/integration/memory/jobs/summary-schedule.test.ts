import { afterEach, describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as clearSummary, GET as getSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import type { SummarySchedule } from '@/lib/memory/jobs/summary-schedule';
import { type Client, newClient, params, readChunks, setEnv } from '@/tests/support/app';
import { fillerTurns, importTurns, postTurnSettled } from '@/tests/support/memory';

// The summary's schedule as GET /api/conversations/:id/summary states it (what the inspector and
// /memory show) is what the refresh job then does, and an offline summary keeps what the user said.

type SummaryBody = { summary: { content: string; version: number; coveredMessageCount: number } | null; schedule: SummarySchedule };

afterEach(() => setEnv({ HISTORY_WINDOW: undefined, SUMMARY_START_MESSAGES: undefined, SUMMARY_REFRESH_MESSAGES: undefined }));

async function summaryOf(client: Client, conversationId: string): Promise<SummaryBody> {
  const response = await getSummary(client.request(`/api/conversations/${conversationId}/summary`), params({ id: conversationId }));
  expect(response.status).toBe(200);
  return response.json();
}

async function startChat(client: Client) {
  const created = await createConversation(client.request('/api/conversations', { method: 'POST' }));
  const conversationId: string = (await created.json()).conversation.id;
  const say = async (text: string) => {
    await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
    await postTurnSettled(client.user.id);
  };
  return { conversationId, say };
}

describe('summary schedule', () => {
  it('says when each version comes and what it covers, and the refresh job does exactly that', async () => {
    // A short window (the summary keeps it raw) so a few versions fit in a short chat.
    setEnv({ HISTORY_WINDOW: '6', SUMMARY_START_MESSAGES: '4', SUMMARY_REFRESH_MESSAGES: '3' });
    const client = await newClient();
    const { conversationId, say } = await startChat(client);
    const lines = [
      'I teach chemistry at a secondary school in Ghent.',
      'My classroom has twenty-eight students this year.',
      'We are planning a field trip to the Atomium in May.',
      'The school lets me borrow a minibus for the trip.',
      'My colleague Lotte will come along as the second adult.',
      'I still need permission slips from every parent.',
      'Half the class has already paid the 12 euro fee.',
      'The bus leaves at half past seven from the school gate.',
      'I would like to add a stop at a chocolate workshop.',
      'Lotte thinks the workshop costs too much for the class.',
    ];
    let said = 0;
    for (let round = 0; round < 3; round++) {
      const before = await summaryOf(client, conversationId);
      const { moreMessages, atMessage, covers } = before.schedule.next;
      expect(before.schedule.keepRaw).toBe(6);
      expect(moreMessages).toBeGreaterThan(0);
      expect(atMessage).toBe(before.schedule.messages + moreMessages);
      // Each exchange is two messages: the version comes with the reply that reaches `atMessage`.
      for (let sent = 0; sent < moreMessages; sent += 2) {
        expect((await summaryOf(client, conversationId)).summary?.version ?? 0).toBe(before.summary?.version ?? 0);
        await say(lines[said++]);
      }
      const after = await summaryOf(client, conversationId);
      expect(after.schedule.messages).toBe(atMessage);
      expect(after.summary?.version).toBe((before.summary?.version ?? 0) + 1);
      expect(after.schedule.covers).toEqual(covers);
      expect(after.summary?.coveredMessageCount).toBe(covers.to - covers.from + 1);
      // Never the last `keepRaw`, and at least SUMMARY_REFRESH_MESSAGES more each time.
      expect(covers.to).toBe(atMessage - 6);
      expect(covers.to - (before.schedule.covers?.to ?? 0)).toBeGreaterThanOrEqual(3);
    }
    // What the user said is there in their words; the offline replies only echoed it.
    const { summary } = await summaryOf(client, conversationId);
    const covered = summary!.coveredMessageCount / 2;
    for (const line of lines.slice(0, covered)) expect(summary!.content).toContain(line.replace(/\.$/u, ''));
    expect(summary!.content).not.toMatch(/^- Assistant:/mu);
  });

  it('in Chinese too, the job keeps what the user said and none of the echoing replies', async () => {
    setEnv({ HISTORY_WINDOW: '2', SUMMARY_START_MESSAGES: '4', SUMMARY_REFRESH_MESSAGES: '2' });
    const client = await newClient();
    const { conversationId, say } = await startChat(client);
    const said = [
      '我女儿下周一开始上小学。',
      '她对花生过敏，午饭要自己带。',
      '帮我想想怎么跟老师说明过敏的情况？',
      '我们家离学校走路十分钟。',
    ];
    for (const text of said) await say(text);
    const { summary, schedule } = await summaryOf(client, conversationId);
    expect(schedule.covers).toEqual({ from: 1, to: 6 });
    for (const text of said.slice(0, 3)) expect(summary!.content).toContain(`- User: ${text}`);
    expect(summary!.content).not.toMatch(/^- Assistant:/mu);
  });

  it('with the defaults: the first version covers the six messages that left the 20-message window', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [['My name is Ilse and I grow tomatoes.', 'Nice.'], ...fillerTurns(11)]);
    const waiting = await summaryOf(client, conversationId);
    expect(waiting.summary).toBeNull();
    expect(waiting.schedule).toEqual({
      messages: 24,
      keepRaw: 20,
      covers: null,
      next: { moreMessages: 2, atMessage: 26, covers: { from: 1, to: 6 } },
    });
    const longer = await importTurns(client.user.id, [['My name is Ilse and I grow tomatoes.', 'Nice.'], ...fillerTurns(12)]);
    const written = await summaryOf(client, longer);
    expect(written.summary).toMatchObject({ version: 1, coveredMessageCount: 6 });
    expect(written.summary!.content).toContain('My name is Ilse and I grow tomatoes');
    expect(written.schedule.covers).toEqual({ from: 1, to: 6 });
    // Refreshed once 5 more lie beyond the window, checked after each reply: at 32, covering 1–12.
    expect(written.schedule.next).toEqual({ moreMessages: 6, atMessage: 32, covers: { from: 1, to: 12 } });
  });

  it('after a clear, the next version covers only later messages', async () => {
    setEnv({ HISTORY_WINDOW: '4', SUMMARY_START_MESSAGES: '4', SUMMARY_REFRESH_MESSAGES: '2' });
    const owner = await newClient();
    const conversationId = await importTurns(owner.user.id, [['我在杭州开了一家茶馆。', '好。'], ...fillerTurns(4)]);
    const before = await summaryOf(owner, conversationId);
    expect(before.summary?.content).toContain('我在杭州开了一家茶馆');
    const cleared = await clearSummary(
      owner.request(`/api/conversations/${conversationId}/summary`, { method: 'DELETE' }),
      params({ id: conversationId }),
    );
    expect(cleared.status).toBe(200);
    const after = await summaryOf(owner, conversationId);
    expect(after.schedule.covers).toBeNull();
    // The ten messages before the clear are never covered again: the next version starts at 11.
    expect(after.schedule.next).toEqual({ moreMessages: 6, atMessage: 16, covers: { from: 11, to: 12 } });
  });
});
