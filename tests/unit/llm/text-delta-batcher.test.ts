import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { TextDeltaBatcher } from '@/lib/llm/text-delta-batcher';

const delta = (id: string, text: string): UIMessageChunk => ({ type: 'text-delta', id, delta: text });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('TextDeltaBatcher', () => {
  it('sends deltas that arrive together as one chunk once the window has passed', async () => {
    const sent: UIMessageChunk[] = [];
    const batcher = new TextDeltaBatcher((chunk) => sent.push(chunk), 20);
    for (const word of ['The ', 'tide ', 'turns ']) batcher.push(delta('t1', word));
    expect(sent).toEqual([]);
    await wait(40);
    expect(sent).toEqual([delta('t1', 'The tide turns ')]);
    batcher.push(delta('t1', 'slowly.'));
    await wait(40);
    expect(sent).toEqual([delta('t1', 'The tide turns '), delta('t1', 'slowly.')]);
  });

  it('keeps the order: any other chunk, or a delta of another part, sends the waiting text first', () => {
    const sent: UIMessageChunk[] = [];
    const batcher = new TextDeltaBatcher((chunk) => sent.push(chunk), 1_000);
    batcher.push({ type: 'text-start', id: 'a' });
    batcher.push(delta('a', 'one '));
    batcher.push(delta('a', 'two'));
    batcher.push(delta('b', 'three'));
    batcher.push({ type: 'error', errorText: 'cut off' });
    batcher.push(delta('b', 'four'));
    batcher.flush();
    expect(sent).toEqual([
      { type: 'text-start', id: 'a' },
      delta('a', 'one two'),
      delta('b', 'three'),
      { type: 'error', errorText: 'cut off' },
      delta('b', 'four'),
    ]);
  });

  it('loses no text: whatever is pushed arrives, joined, in order', () => {
    const sent: string[] = [];
    const batcher = new TextDeltaBatcher((chunk) => chunk.type === 'text-delta' && sent.push(chunk.delta), 1_000);
    const tokens = Array.from({ length: 200 }, (_, i) => `w${i} `);
    for (const [i, token] of tokens.entries()) {
      if (i % 37 === 0) batcher.flush();
      else batcher.push(delta('x', token));
    }
    batcher.flush();
    expect(sent.join('')).toBe(tokens.filter((_, i) => i % 37 !== 0).join(''));
    expect(sent.length).toBeLessThan(10);
  });
});
