import { encodeChat } from 'gpt-tokenizer/model/gpt-4o';
import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { GET as getContext } from '@/app/api/messages/[id]/context/route';
import { MESSAGE_FRAMING_TOKENS, REPLY_PRIMING_TOKENS, sentTokens } from '@/components/inspector/sent-tokens';
import { getSql } from '@/db/client';
import { stripCitationMarkers } from '@/lib/memory/context/load-history';
import { previewContext } from '@/lib/memory/context/preview';
import { countChatTokens, countTokens, MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS as SERVER_PRIMING } from '@/lib/memory/context/tokens';
import { type Client, newClient, params, readChunks, setEnv, storedMessages, textOf } from '@/tests/support/app';
import { importTurns } from '@/tests/support/memory';

// What the inspector shows for staff, server side: time to first token in the record, earlier
// replies sent without their stale [n] citations, and tokens per message that add up.

const newConversation = async (client: Client) =>
  (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id as string;

async function turn(client: Client, conversationId: string, text: string) {
  const chunks = await readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));
  const assistantId = chunks.find((c) => c.type === 'start')!.messageId as string;
  const response = await getContext(client.request(`/api/messages/${assistantId}/context`), params({ id: assistantId }));
  expect(response.status).toBe(200);
  const { context } = await response.json();
  return { chunks, assistantId, context, text: textOf(chunks) };
}

describe('time to first token', () => {
  it('is recorded in the turn record, within the generate step, and streamed with the final record', async () => {
    setEnv({ OFFLINE_STREAM_DELAY_MS: '15' });
    try {
      const client = await newClient();
      const conversationId = await newConversation(client);
      const { chunks, context } = await turn(client, conversationId, 'Tell me something about spaced repetition.');
      const records = chunks.filter((c) => c.type === 'data-turn').map((c) => c.data);
      // The first record goes out before the first token: it cannot know it yet.
      expect(records[0].firstTokenMs).toBeNull();
      expect(records.at(-1).firstTokenMs).toBe(context.firstTokenMs);

      const generate = context.trace.find((t: { step: string }) => t.step === 'generate');
      expect(typeof context.firstTokenMs).toBe('number');
      expect(context.firstTokenMs).toBeGreaterThanOrEqual(0);
      expect(context.firstTokenMs).toBeLessThan(generate.ms);
      // The reply streams word by word with 15 ms between words: the first word comes well before the last.
      expect(generate.ms - context.firstTokenMs).toBeGreaterThan(15 * 5);
      // The trace keeps its steps (the first token is a field, not a step, so step times still add up).
      expect(context.trace.map((t: { step: string }) => t.step).at(-1)).toBe('generate');
    } finally {
      setEnv({ OFFLINE_STREAM_DELAY_MS: undefined });
    }
  });
});

describe('earlier replies are sent without their [n] citations', () => {
  it('strips citation markers from prose, not from code, links or references', () => {
    expect(stripCitationMarkers('You live in Lisbon [1].')).toBe('You live in Lisbon.');
    expect(stripCitationMarkers('Lisbon[1][2], and tea [3] daily.')).toBe('Lisbon, and tea daily.');
    expect(stripCitationMarkers('I see: "[1] I live in Lisbon"')).toBe('I see: "I live in Lisbon"');
    expect(stripCitationMarkers('[2] First\n[3] Second')).toBe('First\nSecond');
    expect(stripCitationMarkers('See [1](https://example.com) and\n[1]: https://example.com')).toBe(
      'See [1](https://example.com) and\n[1]: https://example.com',
    );
    expect(stripCitationMarkers('Use `arr[3]`:\n```\nx = m[1][2]\n```\nas said [4].')).toBe(
      'Use `arr[3]`:\n```\nx = m[1][2]\n```\nas said.',
    );
    expect(stripCitationMarkers('Nothing to strip [a] [1234].')).toBe('Nothing to strip [a] [1234].');
  });

  it('the window sends an earlier reply without its [n] while the stored reply keeps it, and the tokens still add up', async () => {
    const client = await newClient();
    await importTurns(client.user.id, [['My favourite film is Alien.', 'A classic.']]);
    const conversationId = await newConversation(client);

    // The offline model quotes the numbered memory line it used: its reply cites [n].
    const first = await turn(client, conversationId, 'What is my favourite film?');
    // (the fact, or the earlier exchange it came from: both are recalled across conversations)
    expect(first.text).toMatch(/"My favourite film is Alien\.?"[^[]*\[\d+\]/);
    const [storedReply] = (await storedMessages(conversationId)).filter((m) => m.role === 'assistant');
    expect(storedReply.content).toMatch(/\[\d+\]/);

    const second = await turn(client, conversationId, 'And which film did I say again?');
    const sent = second.context.messages as Array<{ role: string; content: string }>;
    const earlierReply = sent.find((m) => m.role === 'assistant');
    expect(earlierReply).toBeDefined();
    expect(earlierReply!.content).toContain('My favourite film is Alien');
    expect(earlierReply!.content).not.toMatch(/\[\d+\]/);
    expect(earlierReply!.content).toBe(stripCitationMarkers(storedReply.content as string));
    // The stored reply is unchanged: the chat still shows its citations, and its own record resolves them.
    const [again] = (await storedMessages(conversationId)).filter((m) => m.role === 'assistant');
    expect(again.content).toBe(storedReply.content);
    const [row] = await getSql()`select content from messages where id = ${first.assistantId}`;
    expect(row.content).toMatch(/\[\d+\]/);

    // The budget counted the stripped text: the recorded tokens still add up to the messages sent.
    const kept = second.context.budget.decisions.filter((d: { kept: boolean }) => d.kept);
    const keptTokens = kept.reduce((sum: number, d: { tokens: number }) => sum + d.tokens, 0);
    expect(keptTokens).toBe(second.context.budget.total);
    expect(keptTokens).toBe(countChatTokens(sent, 'o200k_base'));
    expect(keptTokens).toBe(encodeChat(sent as Array<{ role: 'system' | 'user' | 'assistant'; content: string }>).length);
    const windowDecision = kept.find((d: { key: string }) => d.key === `message:${first.assistantId}`);
    expect(windowDecision.tokens).toBe(countTokens(earlierReply!.content, 'o200k_base') + MESSAGE_OVERHEAD_TOKENS);
  });
});

describe('tokens per message sent (what the inspector shows instead of characters)', () => {
  it('come from the recorded decisions, match each message counted on its own, and add up to the budget total', async () => {
    const client = await newClient();
    const conversationId = await importTurns(client.user.id, [
      ['My name is Ada and I live in Berlin.', 'Hello Ada!'],
      ["I'm vegetarian.", 'Noted.'],
      ['I have a cat named Luna.', 'Lovely name.'],
    ]);
    const { context } = await turn(client, conversationId, 'Suggest a dinner for me and Luna tonight.');
    const sent = context.messages as Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
    expect(sent.length).toBeGreaterThan(2);

    const tokens = sentTokens(context);
    expect(MESSAGE_FRAMING_TOKENS).toBe(MESSAGE_OVERHEAD_TOKENS);
    expect(REPLY_PRIMING_TOKENS).toBe(SERVER_PRIMING);
    expect(tokens.perMessage).toHaveLength(sent.length);
    sent.forEach((message, i) => {
      expect(tokens.perMessage[i].tokens, `message #${i} (${message.role})`).toBe(
        countTokens(message.content, 'o200k_base') + MESSAGE_OVERHEAD_TOKENS,
      );
      expect(tokens.perMessage[i].parts.reduce((sum, part) => sum + part.tokens, 0)).toBe(tokens.perMessage[i].tokens);
    });
    expect(tokens.total).toBe(context.budget.total);
    expect(tokens.total).toBe(countChatTokens(sent, 'o200k_base'));
    // The window's messages are named by their chat ids, oldest first, and the question by its own.
    const window = (await storedMessages(conversationId)).slice(0, sent.length - 2);
    expect(tokens.perMessage.slice(1, -1).map((m) => m.messageId)).toEqual(window.map((m) => m.id));
    expect(tokens.perMessage.at(-1)!.messageId).toBe(context.question.id);
  });

  it('a record without a budget says so rather than guessing', () => {
    const tokens = sentTokens({
      budget: null,
      messages: [
        { role: 'system', content: 'x' },
        { role: 'user', content: 'y' },
      ],
    });
    expect(tokens.total).toBeNull();
    expect(tokens.perMessage.map((m) => m.tokens)).toEqual([null, null]);
  });

  it('the preview agrees: every window item is counted on the stripped text', async () => {
    const user = await newClient();
    const conversationId = await importTurns(user.user.id, [['Where is the Louvre?', 'In Paris [1], on the right bank [2].']]);
    const state = await previewContext({ userId: user.user.id, conversationId }, 'And the Prado?');
    const reply = state.messages.find((m) => m.role === 'assistant');
    expect(reply?.content).toBe('In Paris, on the right bank.');
  });
});
