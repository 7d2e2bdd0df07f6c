import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { GET as removalPlan } from '@/app/api/messages/[id]/removal/route';
import { DELETE as deleteMessage } from '@/app/api/messages/[id]/route';
import { getSql } from '@/db/client';
import { type Client, newClient, params, readChunks } from '@/tests/support/app';
import { activeFacts, postTurnSettled } from '@/tests/support/memory';

// Deleting one message: the dialog's counts are what the deletion then does, and the turn records
// that quoted the message are redacted (they stay, as on a deletion of a fact).

async function newConversation(client: Client): Promise<string> {
  return (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
}

async function turn(client: Client, conversationId: string, text: string): Promise<{ question: string; reply: string }> {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  const start = chunks.find((c) => c.type === 'start')!;
  await postTurnSettled(client.user.id);
  return { question: start.messageMetadata.userMessageId as string, reply: start.messageId as string };
}

const records = async (userId: string) =>
  (await getSql()`select assistant_message_id, record::text as text from turn_records where user_id = ${userId}`).map((r) => ({
    id: r.assistant_message_id as string,
    text: r.text as string,
  }));

describe('deleting one message', () => {
  it.each([
    { lang: 'en', said: 'My grandmother lives in Coimbra.', word: 'Coimbra', probe: 'Where does my grandmother live?' },
    { lang: 'zh', said: '我奶奶住在桂林。', word: '桂林', probe: '我奶奶住在哪里？' },
  ])('counts what it will do, does that, and redacts the records that quoted it ($lang)', async ({ said, word, probe }) => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    const statement = await turn(client, conversationId, said);
    // Recalled in another conversation, and sent in this one's window.
    await turn(client, await newConversation(client), probe);
    await turn(client, conversationId, probe);
    expect((await records(client.user.id)).filter((r) => r.text.includes(word)).length).toBeGreaterThanOrEqual(2);

    const url = `/api/messages/${statement.question}`;
    const planned = await removalPlan(client.request(`${url}/removal`), params({ id: statement.question }));
    expect(planned.status).toBe(200);
    const plan = await planned.json();
    expect(plan).toMatchObject({ message: { id: statement.question, role: 'user' }, factsEnded: 1 });
    expect(plan.episodesRederived).toBeGreaterThanOrEqual(1);
    const [{ n: messagesBefore }] = await getSql()`select count(*)::int as n from messages where user_id = ${client.user.id}`;

    const response = await deleteMessage(client.request(url, { method: 'DELETE' }), params({ id: statement.question }));
    expect(response.status).toBe(200);
    const done = await response.json();
    // The dialog says for how long the deletion can be undone.
    const { message: _, undoMinutes, ...counts } = plan;
    expect(undoMinutes).toBe(30);
    expect(done).toMatchObject({ deleted: statement.question, ...counts });
    expect(done.recordsRedacted).toBeGreaterThanOrEqual(2);
    await postTurnSettled(client.user.id);

    const after = await records(client.user.id);
    expect(after).toHaveLength(3); // every record stays
    for (const record of after) expect(record.text, `record ${record.id}`).not.toContain(word);
    expect(after.some((r) => /"reason": ?"message deleted"/u.test(r.text))).toBe(true);
    expect((await activeFacts(client.user.id)).join()).not.toContain(word);
    const [{ n: messagesAfter }] = await getSql()`select count(*)::int as n from messages where user_id = ${client.user.id}`;
    expect(messagesAfter).toBe(messagesBefore - 1);
  });

  it('of a reply takes its words out of the records whose window sent it', async () => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    const first = await turn(client, conversationId, 'Tell me about tide pools?');
    const [{ content }] = await getSql()`select content from messages where id = ${first.reply}`;
    await turn(client, conversationId, 'And what lives in them?');
    const quoted = (content as string).slice(0, 40);
    expect((await records(client.user.id)).some((r) => r.text.includes(quoted))).toBe(true);

    const plan = await (await removalPlan(client.request(`/api/messages/${first.reply}/removal`), params({ id: first.reply }))).json();
    expect(plan).toMatchObject({ message: { role: 'assistant' }, factsEnded: 0 });
    const done = await (
      await deleteMessage(client.request(`/api/messages/${first.reply}`, { method: 'DELETE' }), params({ id: first.reply }))
    ).json();
    expect(done.recordsRedacted).toBeGreaterThanOrEqual(1);
    for (const record of await records(client.user.id)) expect(record.text).not.toContain(quoted);
  });

  it("is a 404 for another user's message, as for an id that is no message, changing nothing", async () => {
    const [owner, stranger] = [await newClient(), await newClient()];
    const { question } = await turn(owner, await newConversation(owner), 'My bicycle is green.');
    const plan = await removalPlan(stranger.request(`/api/messages/${question}/removal`), params({ id: question }));
    expect(plan.status).toBe(404);
    const bad = await removalPlan(owner.request('/api/messages/nope/removal'), params({ id: 'nope' }));
    expect(bad.status).toBe(404);
    expect((await bad.json()).error.message).toMatch(/Message/u);
    expect(
      (await deleteMessage(stranger.request(`/api/messages/${question}`, { method: 'DELETE' }), params({ id: question }))).status,
    ).toBe(404);
    expect(await getSql()`select 1 from messages where id = ${question}`).toHaveLength(1);
  });
});
