import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as chat } from '@/app/api/chat/route';
import { POST as createConversation } from '@/app/api/conversations/route';
import { getSql } from '@/db/client';
import { newClient, readChunks, setEnv, storedMessages } from '@/tests/support/app';
import { postTurnSettled } from '@/tests/support/memory';

// The sentence encoder's threads start, then crash on the first batch they are given: the rest (pool,
// encoder, chat turn, post-turn jobs) is the real code.
vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:worker_threads')>();
  class CrashingModelThread extends real.Worker {
    constructor() {
      super(`require('node:worker_threads').parentPort.on('message', () => { throw new Error('model thread out of memory'); });`, {
        eval: true,
      });
    }
  }
  return { ...real, Worker: CrashingModelThread };
});

beforeAll(() => setEnv({ OFFLINE_EMBEDDER: 'sentence-encoder' }));
afterAll(() => setEnv({ OFFLINE_EMBEDDER: undefined }));

describe('a sentence encoder whose thread crashes', () => {
  it('is an embedder failure: the reply streams from words-only recall, both messages are kept, the indexing job fails visibly', async () => {
    const client = await newClient();
    const { conversation } = await (await createConversation(client.request('/api/conversations', { method: 'POST' }))).json();
    const chunks = await readChunks(
      await chat(
        client.request('/api/chat', { body: { conversationId: conversation.id, message: { text: 'I keep two beehives on the roof.' } } }),
      ),
    );
    expect(chunks.some((c) => c.type === 'error')).toBe(false);
    const turn = chunks.find((c) => c.type === 'data-turn')!.data;
    expect(turn.warnings).toHaveLength(1);
    expect(turn.warnings[0]).toContain('recall used words only');
    expect(turn.warnings[0]).toContain('model thread out of memory');
    expect((await storedMessages(conversation.id)).map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);

    await postTurnSettled(client.user.id);
    const [job] = await getSql()`select status, last_error from jobs where user_id = ${client.user.id} and kind = 'index_episode'`;
    expect(job).toMatchObject({ status: 'failed', last_error: expect.stringContaining('model thread out of memory') });
  });
});
