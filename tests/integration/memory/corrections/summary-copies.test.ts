import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { DELETE as clearSummary, PUT as editSummary } from '@/app/api/conversations/[id]/summary/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { POST as undo } from '@/app/api/corrections/[id]/undo/route';
import { getSql } from '@/db/client';
import { previewContext } from '@/lib/memory/context/preview';
import { type Client, newClient, params, readChunks } from '@/tests/support/app';
import { postTurnSettled } from '@/tests/support/memory';

// A summary's text withdrawn (cleared, or edited away) also leaves the replies that copied it: a
// hand-written summary line lives nowhere else, so a reply quoting it would keep it in the window.

async function say(client: Client, conversationId: string, text: string): Promise<{ id: string; text: string }> {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  await postTurnSettled(client.user.id);
  const id = chunks.find((c) => c.type === 'start')!.messageId as string;
  const [reply] = await getSql()`select content from messages where id = ${id}`;
  return { id, text: reply.content as string };
}

/** The window as the model is sent it for a probe question: every message, the probe left out. */
async function windowFor(client: Client, conversationId: string): Promise<string> {
  const state = await previewContext({ userId: client.user.id, conversationId }, 'And one more thing?');
  return state.messages
    .slice(0, -1)
    .map((m) => m.content as string)
    .join('\n');
}

const CASES = [
  {
    lang: 'en',
    note: '- Keeps the spare house key inside the blue biscuit tin on the porch.',
    question: 'Where do I keep the spare house key?',
    word: 'biscuit tin',
  },
  { lang: 'zh', note: '- 备用钥匙放在阳台上的蓝色饼干盒里。', question: '我的备用钥匙放在哪里？', word: '饼干盒' },
];

describe("a summary's copies in replies", () => {
  it.each(CASES)('go from the window when the summary is cleared, and come back with its undo ($lang)', async (c) => {
    const client = await newClient();
    const { conversation } = await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json();
    const id = conversation.id as string;
    const url = `/api/conversations/${id}/summary`;
    await say(client, id, 'Just checking in.');
    expect((await editSummary(client.request(url, { method: 'PUT', body: { content: c.note } }), params({ id }))).status).toBe(200);
    const quoting = await say(client, id, c.question);
    expect(quoting.text, 'the reply quotes the summary').toContain(c.word);
    expect(await windowFor(client, id)).toContain(c.word);

    const cleared = await clearSummary(client.request(url, { method: 'DELETE' }), params({ id }));
    expect(cleared.status).toBe(200);
    await postTurnSettled(client.user.id);
    expect(await windowFor(client, id)).not.toContain(c.word);
    const episodes = await getSql()`select content from episodes where user_id = ${client.user.id} and content like ${`%${c.word}%`}`;
    expect(episodes).toHaveLength(0);

    const { undo: ref } = await cleared.json();
    expect((await undo(client.request(`/api/corrections/${ref.id}/undo`, { method: 'POST' }), params({ id: ref.id }))).status).toBe(200);
    await postTurnSettled(client.user.id);
    expect(await windowFor(client, id)).toContain(c.word);
  });

  it.each(CASES)('go from the window when an edit drops the line they quoted ($lang)', async (c) => {
    const client = await newClient();
    const { conversation } = await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json();
    const id = conversation.id as string;
    const url = `/api/conversations/${id}/summary`;
    await say(client, id, 'Just checking in.');
    await editSummary(client.request(url, { method: 'PUT', body: { content: c.note } }), params({ id }));
    expect((await say(client, id, c.question)).text).toContain(c.word);
    await editSummary(client.request(url, { method: 'PUT', body: { content: '- Likes short answers.' } }), params({ id }));
    await postTurnSettled(client.user.id);
    expect(await windowFor(client, id)).not.toContain(c.word);
  });

  it('leave a reply alone when the words it quoted are still the user’s own', async () => {
    const client = await newClient();
    const { conversation } = await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json();
    const id = conversation.id as string;
    const said = 'My bicycle is the green one with a wicker basket.';
    await say(client, id, said);
    await editSummary(
      client.request(`/api/conversations/${id}/summary`, { method: 'PUT', body: { content: `- ${said}` } }),
      params({ id }),
    );
    const reply = await say(client, id, 'Which bicycle is mine?');
    expect(reply.text).toContain('wicker basket');
    await clearSummary(client.request(`/api/conversations/${id}/summary`, { method: 'DELETE' }), params({ id }));
    await postTurnSettled(client.user.id);
    const window = await windowFor(client, id);
    expect(window.split(said).length - 1, window).toBeGreaterThanOrEqual(2); // the statement and the reply's quote of it
  });
});
