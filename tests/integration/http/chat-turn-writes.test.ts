import { beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { getSql } from '@/db/client';
import { type Client, newClient, readChunks, storedMessages, textOf } from '@/tests/support/app';
import { type OpenAIStub, serveOpenAIStub } from '@/tests/support/openai-stub';

// A turn writes its record and items in one statement as the model is called, and its end (the
// reply's row, the record's own fields, what it cited) in one more. Neither write may lose the reply:
// a record that could not be stored at the start is stored whole at the end, and a failing end still
// ends the reply's row.

const failing = vi.hoisted(() => ({ start: false, end: false }));
vi.mock('@/db/turns', async (importOriginal) => {
  const turns = await importOriginal<typeof import('@/db/turns')>();
  return {
    ...turns,
    saveTurnStart: async (...args: Parameters<typeof turns.saveTurnStart>) => {
      if (failing.start) {
        failing.start = false;
        throw new Error('the connection to the database was lost');
      }
      return turns.saveTurnStart(...args);
    },
    finishTurn: async (...args: Parameters<typeof turns.finishTurn>) => {
      if (failing.end) throw new Error('the connection to the database was lost');
      return turns.finishTurn(...args);
    },
  };
});

let stub: OpenAIStub;
let client: Client;
let conversationId: string;

serveOpenAIStub({ CHAT_MODEL: 'stub-chat' }, (started) => {
  stub = started;
});
beforeEach(async () => {
  client = await newClient();
  conversationId = (await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json()).conversation.id;
  stub.reply = { text: 'The ferry to Lindisfarne leaves at the turn of the tide.' };
  failing.start = false;
  failing.end = false;
});

const ask = async (text: string) => readChunks(await chat(client.request('/api/chat', { body: { conversationId, message: { text } } })));

async function storedTurn(assistantMessageId: string) {
  const [record] = await getSql()`select record from turn_records where assistant_message_id = ${assistantMessageId}`;
  const [cited] = await getSql()`select items, cited_keys, repeated_keys from citations where assistant_message_id = ${assistantMessageId}`;
  return { record: record?.record, cited };
}

describe("a turn's writes", () => {
  it('end the reply, complete its record and keep its items', async () => {
    const chunks = await ask('When does the ferry leave?');
    const replyId = chunks.find((c) => c.type === 'start')!.messageId;
    expect(textOf(chunks)).toBe('The ferry to Lindisfarne leaves at the turn of the tide.');
    const [, reply] = await storedMessages(conversationId);
    expect([reply.status, reply.content]).toEqual(['complete', 'The ferry to Lindisfarne leaves at the turn of the tide.']);
    const { record, cited } = await storedTurn(replyId);
    expect(record).toMatchObject({ status: 'complete', cited: [] });
    expect(record.trace.map((t: { step: string }) => t.step)).toContain('generate');
    expect(cited).toMatchObject({ cited_keys: [], repeated_keys: [] });
    // The client's last record is the one stored.
    expect(chunks.filter((c) => c.type === 'data-turn').at(-1)!.data).toEqual(record);
  });

  it('store the whole record at the end when the start could not store it', async () => {
    failing.start = true;
    const chunks = await ask('When does the ferry leave?');
    const replyId = chunks.find((c) => c.type === 'start')!.messageId;
    expect(chunks.at(-1)!.type).toBe('finish');
    const { record, cited } = await storedTurn(replyId);
    expect(record).toMatchObject({ status: 'complete', assistantMessageId: replyId });
    expect(record.messages.length).toBeGreaterThan(0);
    expect(cited).toMatchObject({ cited_keys: [], repeated_keys: [] });
    expect((await storedMessages(conversationId)).map((m) => m.status)).toEqual(['complete', 'complete']);
  });

  it('end the reply row even when its end cannot be recorded', async () => {
    failing.end = true;
    const chunks = await ask('When does the ferry leave?');
    expect(textOf(chunks)).toBe('The ferry to Lindisfarne leaves at the turn of the tide.');
    expect(chunks.at(-1)!.type).toBe('finish');
    const [, reply] = await storedMessages(conversationId);
    expect([reply.status, reply.content]).toEqual(['complete', 'The ferry to Lindisfarne leaves at the turn of the tide.']);
  });
});
