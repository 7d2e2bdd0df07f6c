import { describe, expect, it } from 'vitest';
import { coalescedWrites } from '@/lib/coalesced-writes';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A byte source the test writes to, piped through the coalescer; `reads` collects what comes out, chunk by chunk. */
function piped() {
  let source!: ReadableStreamDefaultController<Uint8Array>;
  let cancelledWith: unknown;
  const stream = new ReadableStream<Uint8Array>({
    start: (controller) => {
      source = controller;
    },
    cancel: (reason) => {
      cancelledWith = reason;
    },
  });
  const reader = stream.pipeThrough(coalescedWrites()).getReader();
  const write = (s: string) => source.enqueue(new TextEncoder().encode(s));
  return { write, end: () => source.close(), reader, cancelledWith: () => cancelledWith };
}

describe('coalesced writes', () => {
  it('sends the frames made in one turn of the event loop as one chunk, in order', async () => {
    const { write, end, reader } = piped();
    write('data: 1\n\n');
    write('data: 2\n\n');
    write('data: 3\n\n');
    const first = await reader.read();
    expect(text(first.value!)).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');
    write('data: 4\n\n');
    await nextTurn();
    write('data: 5\n\n');
    end();
    const rest: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest.push(text(read.value));
    expect(rest.join('')).toBe('data: 4\n\ndata: 5\n\n');
    expect(rest.length).toBeGreaterThanOrEqual(1);
  });

  it('holds no frame back at the end', async () => {
    const { write, end, reader } = piped();
    write('data: last\n\n');
    end();
    const read = await reader.read();
    expect(text(read.value!)).toBe('data: last\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('passes a reader leaving on to the source, and sends nothing after', async () => {
    const { write, reader, cancelledWith } = piped();
    write('data: 1\n\n');
    await reader.read();
    write('data: 2\n\n');
    await reader.cancel('client gone');
    await nextTurn();
    await nextTurn();
    expect(cancelledWith()).toBe('client gone');
  });
});
