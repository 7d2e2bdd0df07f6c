import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchAwareQueue } from '@/db/wire-queue';

// Wire messages as a client sends them: a simple Query, and a Parse naming its statement.
const encoder = new TextEncoder();
function message(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = type.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}
const query = (sql: string) => message('Q', encoder.encode(`${sql}\0`));
const parse = (name: string, sql: string) => message('P', new Uint8Array([...encoder.encode(`${name}\0${sql}\0`), 0, 0]));
const ignore = () => {};

const db = await PGlite.create();
afterAll(() => db.close());

describe('the embedded database bridge when a connection goes', () => {
  it('finishes its clean-up though the disconnect is told twice while another connection holds the backend', async () => {
    const queue = new BatchAwareQueue(db);
    // Connection 1 holds the one backend inside its transaction.
    await queue.enqueue(1, query('BEGIN'), ignore);
    // Connection 2 names a statement, and waits for the backend.
    const waiting = queue.enqueue(2, parse('memlens_probe_statement', 'select 1'), ignore);
    // pglite-socket tells of connection 2's end twice (an error, then the close), each time cancelling what it
    // still had waiting and then cleaning up after it.
    queue.clearQueueForHandler(2);
    await expect(waiting).rejects.toThrow('Handler disconnected');
    const cleanup = queue.clearTransactionIfNeeded(2);
    queue.clearQueueForHandler(2);
    await queue.clearTransactionIfNeeded(2);
    // The clean-up waits for the backend, and runs once connection 1 lets it go.
    await queue.enqueue(1, query('COMMIT'), ignore);
    await expect(cleanup).resolves.toBeUndefined();
    expect(queue.getQueueLength()).toBe(0);
    // The backend is free for the next connection.
    let bytes = 0;
    await queue.enqueue(3, query('select 1'), (data) => {
      bytes += data.length;
    });
    expect(bytes).toBeGreaterThan(0);
  });
});
