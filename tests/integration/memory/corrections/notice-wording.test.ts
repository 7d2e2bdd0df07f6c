import { describe, expect, it } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { PATCH as editFact } from '@/app/api/facts/[id]/route';
import { GET as memoryChanges } from '@/app/api/messages/[id]/memory-changes/route';
import { getSql } from '@/db/client';
import { newClient, params, readChunks } from '@/tests/support/app';
import { postTurnSettled } from '@/tests/support/memory';

// The chat's "Memory updated … from your message …" notice quotes the message as the user wrote
// it: never a marker memory reads in place of a corrected or forgotten part.

const MARKER = /\[(corrected|forgotten|redacted)\b/u;

describe("a reply's memory notice", () => {
  it.each([
    { lang: 'en', said: 'I work as a pharmacist.', corrected: 'I work as a veterinarian', word: 'pharmacist' },
    { lang: 'zh', said: '我是一名药剂师。', corrected: '我是一名兽医', word: '药剂师' },
  ])('quotes the message as written after the fact learned from it is corrected ($lang)', async ({ said, corrected, word }) => {
    const client = await newClient();
    const { conversation } = await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json();
    const chunks = await readChunks(
      await chat(client.request('/api/chat', { body: { conversationId: conversation.id, message: { text: said } } })),
    );
    const replyId = chunks.find((c) => c.type === 'start')!.messageId as string;
    await postTurnSettled(client.user.id);
    const read = async () =>
      (await memoryChanges(client.request(`/api/messages/${replyId}/memory-changes`), params({ id: replyId }))).json();
    const learned = (await read()).changes.find((c: { kind: string }) => c.kind === 'learned');
    expect(learned?.text).toContain(word);

    const [fact] =
      await getSql()`select id from facts where user_id = ${client.user.id} and status = 'active' and content like ${`%${word}%`}`;
    const edited = await editFact(
      client.request(`/api/facts/${fact.id}`, { method: 'PATCH', body: { content: corrected } }),
      params({ id: fact.id }),
    );
    expect(edited.status).toBe(200);

    const after = await read();
    expect(after.source.excerpt).toBe(said);
    expect(after.source.excerpt).not.toMatch(MARKER);
  });
});
