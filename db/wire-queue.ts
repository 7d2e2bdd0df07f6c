import type { PGlite } from '@electric-sql/pglite';

/**
 * Decides which client connection may talk to PGlite's single backend next.
 *
 * pglite-socket's own queue interleaves connections message by message, which breaks the
 * extended query protocol under a pool: connection A's Parse/Bind and connection B's Bind share
 * one backend, so B replaces A's unnamed portal ("portal \"\" does not exist"). Here a connection
 * keeps the backend from its first message until its batch ends (Sync, a simple Query, startup or
 * Terminate) outside a transaction; inside a transaction it keeps it until COMMIT or ROLLBACK.
 * The interface is the one PGLiteSocketServer expects of its queue.
 */
export class BatchAwareQueue {
  private owner: number | null = null;
  private busy = false;
  private waiters: Array<{ handlerId: number; wake: () => void; cancel: (error: Error) => void }> = [];

  constructor(private readonly db: PGlite) {}

  async enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    await this.acquire(handlerId);
    let bytes = 0;
    try {
      await this.db.runExclusive(() =>
        this.db.execProtocolRawStream(message, {
          onRawData: (data) => {
            bytes += data.length;
            onData(data);
          },
        }),
      );
    } finally {
      this.release(handlerId, !endsBatch(message) || this.db.isInTransaction());
    }
    return bytes;
  }

  getQueueLength(): number {
    return this.waiters.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.handlerId !== handlerId) return true;
      waiter.cancel(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A client that disconnects while owning the backend must not leave its transaction open for others. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    await this.acquire(handlerId);
    try {
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    } finally {
      this.release(handlerId, false);
    }
  }

  private acquire(handlerId: number): Promise<void> {
    if (!this.busy && (this.owner === null || this.owner === handlerId)) {
      this.busy = true;
      this.owner = handlerId;
      return Promise.resolve();
    }
    return new Promise((wake, cancel) => this.waiters.push({ handlerId, wake, cancel }));
  }

  private release(handlerId: number, keepOwnership: boolean): void {
    this.busy = false;
    this.owner = keepOwnership ? handlerId : null;
    const next = this.waiters.findIndex((w) => this.owner === null || w.handlerId === this.owner);
    if (next === -1) return;
    const [waiter] = this.waiters.splice(next, 1);
    this.busy = true;
    this.owner = waiter.handlerId;
    waiter.wake();
  }
}

/** Startup packets have no type byte (their first byte is the high byte of the length, 0). */
function endsBatch(message: Uint8Array): boolean {
  const type = String.fromCharCode(message[0]);
  return message[0] === 0 || type === 'S' || type === 'Q' || type === 'X';
}
