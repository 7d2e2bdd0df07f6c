import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { EncoderPool } from '@/lib/llm/sentence-encoder-pool';

// A stand-in model thread with the real thread protocol: a text's vector is [its length, its batch's
// size] after a short pause; "refuse" answers with an error, "crash" throws, "quit" exits the thread.
const STAND_IN_THREAD = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, texts }) => {
  setTimeout(() => {
    if (texts.includes('crash')) throw new Error('the thread broke');
    if (texts.includes('quit')) process.exit(3);
    if (texts.includes('refuse')) return parentPort.postMessage({ id, error: 'no vectors for you' });
    parentPort.postMessage({ id, vectors: texts.map((text) => [text.length, texts.length]) });
  }, 30);
});
`;

let pool: EncoderPool;
let threadsStarted = 0;

function standInPool(size: number, maxBatch: number, reservedForUrgent = 0, code = STAND_IN_THREAD): EncoderPool {
  threadsStarted = 0;
  pool = new EncoderPool({
    spawn: () => {
      threadsStarted++;
      return new Worker(code, { eval: true });
    },
    size,
    reservedForUrgent,
    maxBatch,
  });
  return pool;
}

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => pool.close());

describe('encoder pool', () => {
  it('gives each call its own vectors in order, and batches what waits while the thread is busy', async () => {
    standInPool(1, 4);
    const first = pool.embed(['alone']);
    await nextTick();
    const waiting = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff'].map((text) => pool.embed([text]));
    expect(await first).toEqual([[5, 1]]);
    // The six that waited go in batches of at most four.
    expect(await Promise.all(waiting)).toEqual([[[1, 4]], [[2, 4]], [[3, 4]], [[4, 4]], [[5, 2]], [[6, 2]]]);
    expect(await pool.embed(['one', 'three'])).toEqual([
      [3, 2],
      [5, 2],
    ]);
    expect(threadsStarted).toBe(1);
  });

  it('serves urgent texts before what waited longer', async () => {
    standInPool(1, 2);
    const order: string[] = [];
    const track = (name: string, call: Promise<number[][]>) => call.then(() => order.push(name));
    const first = track('first', pool.embed(['busy']));
    await nextTick();
    const background = ['one', 'two', 'six'].map((text) => track(text, pool.embed([text])));
    const asked = pool.embed(['where?'], { urgent: true });
    const question = track('question', asked);
    await Promise.all([first, question, ...background]);
    expect(order).toEqual(['first', 'question', 'one', 'two', 'six']);
    // In a batch of its own: it waits for no background text.
    expect(await asked).toEqual([[6, 1]]);
  });

  it('starts a thread kept for urgent texts when every other one is busy, and never gives it background work', async () => {
    // Each vector names the thread that made it.
    standInPool(1, 1, 1, STAND_IN_THREAD.replace('[text.length, texts.length]', "[require('node:worker_threads').threadId]"));
    const busy = pool.embed(['long background batch']);
    await nextTick();
    const background = ['one', 'two', 'six'].map((text) => pool.embed([text]));
    const question = pool.embed(['where?'], { urgent: true });
    const [[[shared]], [[reserved]]] = await Promise.all([busy, question]);
    expect(reserved).not.toBe(shared);
    expect((await Promise.all(background)).flat(2)).toEqual([shared, shared, shared]);
    expect(threadsStarted).toBe(2);
  });

  it('starts no thread before the first call and no more threads than its size', async () => {
    standInPool(2, 1);
    expect(threadsStarted).toBe(0);
    expect(await Promise.all(['x', 'yy', 'zzz'].map((text) => pool.embed([text])))).toEqual([[[1, 1]], [[2, 1]], [[3, 1]]]);
    expect(threadsStarted).toBe(2);
  });

  it('fails only the calls of a batch the thread refused', async () => {
    standInPool(1, 1);
    const refused = pool.embed(['refuse']);
    const fine = pool.embed(['fine']);
    await expect(refused).rejects.toThrow('the sentence encoder failed: no vectors for you');
    expect(await fine).toEqual([[4, 1]]);
    expect(threadsStarted).toBe(1);
  });

  it.each([
    ['crash', 'the thread broke'],
    ['quit', 'exit code 3'],
  ])('fails the calls a thread was serving when it dies (%s), and a new thread serves the next', async (text, reason) => {
    standInPool(1, 8);
    const lost = pool.embed([text, 'beside it']);
    await expect(lost).rejects.toThrow(reason);
    expect(await pool.embed(['after'])).toEqual([[5, 1]]);
    expect(threadsStarted).toBe(2);
  });

  it('fails what waits when no thread can start, and tries again on the next call', async () => {
    let refuse = true;
    pool = new EncoderPool({
      spawn: () => {
        if (refuse) throw new Error('no such entry file');
        return new Worker(STAND_IN_THREAD, { eval: true });
      },
      size: 1,
      reservedForUrgent: 0,
      maxBatch: 8,
    });
    await expect(pool.embed(['first'])).rejects.toThrow('the sentence encoder failed: no such entry file');
    refuse = false;
    expect(await pool.embed(['again'])).toEqual([[5, 1]]);
  });

  it('fails what waits when it is shut down, and starts again when asked', async () => {
    standInPool(1, 8);
    const stopped = expect(pool.embed(['never'])).rejects.toThrow('shut down');
    await nextTick();
    await pool.close();
    await stopped;
    expect(await pool.embed(['again'])).toEqual([[5, 1]]);
  });
});
