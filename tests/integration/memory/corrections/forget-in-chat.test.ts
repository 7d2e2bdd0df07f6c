import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { GET as listMessages } from '@/app/api/conversations/[id]/messages/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { POST as undo } from '@/app/api/corrections/[id]/undo/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { GET as memoryChanges } from '@/app/api/messages/[id]/memory-changes/route';
import { getSql } from '@/db/client';
import { FORGOTTEN } from '@/lib/memory/redaction';
import { type Client, newClient, params, readChunks, textOf } from '@/tests/support/app';
import { activeFacts, postTurnSettled } from '@/tests/support/memory';

// A request to forget said in the chat is done before the reply: the reply confirms without
// repeating the thing, nothing sent to the model holds it, and the chat's marks are there at once.

async function newConversation(client: Client): Promise<string> {
  return (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
}

/** One turn; `marksBeforeJobs` are read as the stream ends, before any post-turn job could run. */
async function turn(client: Client, conversationId: string, text: string) {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  const id = chunks.find((c) => c.type === 'start')!.messageId as string;
  const questionId = chunks.find((c) => c.type === 'start')!.messageMetadata.userMessageId as string;
  const [{ n: pending }] =
    await getSql()`select count(*)::int as n from jobs where message_id = ${id} and status in ('pending', 'running')`;
  const { messages } = await (
    await listMessages(client.request(`/api/conversations/${conversationId}/messages`), params({ id: conversationId }))
  ).json();
  await postTurnSettled(client.user.id);
  const { context } = await (await getContext(client.request(`/api/messages/${id}/context`), params({ id }))).json();
  return {
    id,
    questionId,
    reply: textOf(chunks),
    sent: (context.messages as Array<{ content: string }>).map((m) => m.content).join('\n'),
    // The conversation as sent, without the instructions (which explain the forgotten marker).
    window: (context.messages as Array<{ role: string; content: string }>)
      .filter((m) => m.role !== 'system')
      .map((m) => m.content)
      .join('\n'),
    questionMarks: messages.find((m: { id: string }) => m.id === questionId).marks as Array<{ kind: string }>,
    statementMarks: messages[0].marks as Array<{ kind: string }>,
    jobsStillDue: pending > 0,
  };
}

describe('forgetting in the chat', () => {
  it.each([
    { lang: 'en', said: 'I love bluegrass music.', asked: 'Could you please forget that I love bluegrass music?', word: 'bluegrass' },
    { lang: 'zh', said: '我喜欢打羽毛球。', asked: '请忘掉我喜欢打羽毛球这件事。', word: '羽毛球' },
  ])('happens before the reply, which confirms without repeating it ($lang)', async ({ said, asked, word }) => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    await turn(client, conversationId, said);
    expect((await activeFacts(client.user.id)).join()).toContain(word);

    const forgetting = await turn(client, conversationId, asked);
    expect(forgetting.jobsStillDue).toBe(true); // what follows was done in the turn, not by its jobs
    expect(forgetting.reply).not.toContain(word);
    expect(forgetting.reply).toMatch(/forgotten|忘记/u);
    expect(forgetting.sent).not.toContain(word); // neither the window nor the question held it
    expect(forgetting.window).toContain(FORGOTTEN);
    expect(forgetting.questionMarks.map((m) => m.kind)).toContain('forgotten');
    expect(forgetting.statementMarks.map((m) => m.kind)).toContain('forgotten');
    expect((await activeFacts(client.user.id)).join()).not.toContain(word);

    const later = await turn(client, conversationId, 'What kind of music or sport do I like?');
    expect(later.sent).not.toContain(word);
  });

  it.each([
    { lang: 'en', asked: 'Please forget that I keep a pet iguana.', word: 'iguana', reply: /nothing to forget/u },
    { lang: 'zh', asked: '请忘记我养了一只鹦鹉这件事。', word: '鹦鹉', reply: /没有/u },
  ])('says so plainly when the request matches nothing ($lang)', async ({ asked, word, reply }) => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    await turn(client, conversationId, 'My favourite colour is teal.');
    const result = await turn(client, conversationId, asked);
    expect(result.reply).toMatch(reply);
    expect(result.reply).not.toContain(word);
    expect(result.sent).not.toContain(word);
    expect((await activeFacts(client.user.id)).join()).toContain('teal'); // nothing else went
  });

  it.each([
    {
      lang: 'en',
      said: 'I really enjoy restoring old bicycles.',
      asked: 'Forget that I enjoy restoring old bicycles, please.',
      word: 'bicycles',
    },
    { lang: 'zh', said: '我很喜欢弹钢琴。', asked: '请忘掉我喜欢弹钢琴这件事。', word: '钢琴' },
  ])('undone, brings the fact back and the request as written ($lang)', async ({ said, asked, word }) => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    await turn(client, conversationId, said);
    expect((await activeFacts(client.user.id)).join()).toContain(word);
    const forgetting = await turn(client, conversationId, asked);
    expect(forgetting.questionMarks.map((m) => m.kind)).toContain('forgotten');

    const { changes } = await (
      await memoryChanges(client.request(`/api/messages/${forgetting.id}/memory-changes`), params({ id: forgetting.id }))
    ).json();
    const forgotten = changes.find((c: { kind: string }) => c.kind === 'forgotten');
    expect(forgotten?.undo).toBeTruthy();
    const undone = await undo(
      client.request(`/api/corrections/${forgotten.undo.id}/undo`, { method: 'POST' }),
      params({ id: forgotten.undo.id }),
    );
    expect(undone.status).toBe(200);
    await postTurnSettled(client.user.id);

    expect((await activeFacts(client.user.id)).join()).toContain(word);
    const { messages } = await (
      await listMessages(client.request(`/api/conversations/${conversationId}/messages`), params({ id: conversationId }))
    ).json();
    for (const message of messages as Array<{ id: string; role: string; marks: unknown[] }>) {
      if (message.role === 'user') expect(message.marks, `marks of ${message.id}`).toEqual([]);
    }
    const later = await turn(client, conversationId, 'Anything else?');
    expect(later.window).toContain(asked); // the request is sent as the user wrote it
    expect(later.window).not.toContain(FORGOTTEN);
  });
});
