import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { GET as listMessages } from '@/app/api/conversations/[id]/messages/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { PATCH as editFact } from '@/app/api/facts/[id]/route';
import { GET as getFacts } from '@/app/api/facts/route';
import { DELETE as forgetAll } from '@/app/api/memory/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { correctedBy, FORGOTTEN } from '@/lib/memory/redaction';
import { type Client, newClient, params, readChunks } from '@/tests/support/app';
import { postTurnSettled } from '@/tests/support/memory';

// The recent window honours every correction in the same conversation: it is read as memory reads
// it, and holds nothing from before "forget everything", for every later turn.

/** One turn through the chat route; returns the window messages its record says were sent. */
async function turn(client: Client, conversationId: string, text: string): Promise<{ id: string; window: string[] }> {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  const id = chunks.find((c) => c.type === 'start')!.messageId as string;
  await postTurnSettled(client.user.id);
  const response = await getContext(client.request(`/api/messages/${id}/context`), params({ id }));
  const { context } = await response.json();
  const sent = (context.messages as Array<{ role: string; content: string }>).slice(1, -1);
  return { id, window: sent.map((m) => m.content) };
}

async function newConversation(client: Client): Promise<string> {
  return (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
}

const LATER = [
  'What should I cook tonight?',
  'Any idea for a weekend walk?',
  '周末做什么好？',
  'How do I keep basil alive?',
  '推荐一本书？',
];

describe('the recent window', () => {
  it.each([
    { lang: 'en', said: 'I work as a librarian in Ghent.', old: 'librarian', edited: 'I work as a beekeeper in Ghent.' },
    { lang: 'zh', said: '我在杭州当牙医。', old: '牙医', edited: '我在杭州当木匠。' },
  ])('sends a corrected statement as its correction for the next five turns ($lang)', async ({ said, old, edited }) => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    await turn(client, conversationId, said);
    const facts = (await (await getFacts(client.request('/api/facts?status=active'))).json()).facts as Array<{
      id: string;
      content: string;
    }>;
    const fact = facts.find((f) => f.content.includes(old))!;
    expect(fact).toBeDefined();
    const patched = await editFact(
      client.request(`/api/facts/${fact.id}`, { method: 'PATCH', body: { content: edited } }),
      params({ id: fact.id }),
    );
    expect(patched.status).toBe(200);
    for (const text of LATER) {
      const { window } = await turn(client, conversationId, text);
      const joined = window.join('\n');
      expect(joined, `turn "${text}"`).not.toContain(old);
      expect(joined).toContain(correctedBy(edited));
    }
  });

  it('after "forget everything" sends nothing from before, and the chat marks those messages forgotten whole', async () => {
    const client = await newClient();
    const conversationId = await newConversation(client);
    await turn(client, conversationId, 'My cat is called Pistachio.');
    await turn(client, conversationId, '我的女儿叫小雨。');
    expect((await forgetAll(client.request('/api/memory', { method: 'DELETE' }))).status).toBe(200);

    for (const text of LATER) {
      const { window } = await turn(client, conversationId, text);
      const joined = window.join('\n');
      expect(joined, `turn "${text}"`).not.toMatch(/Pistachio|小雨/u);
      expect(joined).not.toContain(FORGOTTEN); // not sent at all, rather than as stubs
    }

    const { messages } = await (
      await listMessages(client.request(`/api/conversations/${conversationId}/messages`), params({ id: conversationId }))
    ).json();
    const marked = messages.map((m: { content: string; marks: Array<{ start: number; end: number; kind: string }> }) => ({
      content: m.content,
      whole: m.marks.some((k) => k.kind === 'forgotten' && k.start === 0 && k.end === m.content.length),
    }));
    expect(marked.slice(0, 4).every((m: { whole: boolean }) => m.whole)).toBe(true);
    expect(marked.slice(4).some((m: { whole: boolean }) => m.whole)).toBe(false);
    expect(marked[0].content).toBe('My cat is called Pistachio.'); // shown as written
  });
});
