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
 *
 * The one backend also holds every connection's prepared statements (db/client.ts prepares them):
 * a connection's are deallocated when it goes, or each reconnect of the pool would leave its set behind.
 */
export class BatchAwareQueue {
  private owner: number | null = null;
  private readonly statements = new Map<number, Set<string>>();
  private busy = false;
  /** `cleanup`: the wait of a disconnected handler's own clean-up, which no later notice of that disconnect cancels. */
  private waiters: Array<{ handlerId: number; cleanup: boolean; wake: () => void; cancel: (error: Error) => void }> = [];

  constructor(private readonly db: PGlite) {}

  async enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const prepared = statementParsed(message);
    if (prepared) {
      if (!this.statements.has(handlerId)) this.statements.set(handlerId, new Set());
      this.statements.get(handlerId)!.add(prepared);
    }
    await this.acquire(handlerId, false);
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

  /**
   * Cancels the messages a disconnected handler still had waiting. pglite-socket may tell of one disconnect twice (an
   * error, then the close), and calls nothing that catches what `clearTransactionIfNeeded` throws: the clean-up that
   * the first notice started waits on, uncancelled.
   */
  clearQueueForHandler(handlerId: number): void {
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.handlerId !== handlerId || waiter.cleanup) return true;
      waiter.cancel(new Error('Handler disconnected'));
      return false;
    });
  }

  /**
   * Called when a client disconnects: one that owned the backend must not leave its transaction open
   * for others, and its prepared statements go with it.
   */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    const statements = this.statements.get(handlerId) ?? new Set<string>();
    this.statements.delete(handlerId);
    const owned = this.owner === handlerId;
    if (!owned && statements.size === 0) return;
    await this.acquire(handlerId, true);
    try {
      if (owned && this.db.isInTransaction()) await this.db.exec('ROLLBACK');
      for (const name of statements) {
        // A Parse that failed left no statement behind.
        await this.db.exec(`DEALLOCATE "${name.replaceAll('"', '""')}"`).catch(() => {});
      }
    } finally {
      this.release(handlerId, false);
    }
  }

  private acquire(handlerId: number, cleanup: boolean): Promise<void> {
    if (!this.busy && (this.owner === null || this.owner === handlerId)) {
      this.busy = true;
      this.owner = handlerId;
      return Promise.resolve();
    }
    return new Promise((wake, cancel) => this.waiters.push({ handlerId, cleanup, wake, cancel }));
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

/** The name a Parse message gives its statement; undefined for any other message and for the unnamed statement. */
function statementParsed(message: Uint8Array): string | undefined {
  if (message[0] !== 0x50 || message.length < 6) return undefined; // 'P', then a 4-byte length, then the name
  const end = message.indexOf(0, 5);
  if (end <= 5) return undefined;
  return new TextDecoder().decode(message.subarray(5, end));
}

/** Startup packets have no type byte (their first byte is the high byte of the length, 0). */
function endsBatch(message: Uint8Array): boolean {
  const type = String.fromCharCode(message[0]);
  return message[0] === 0 || type === 'S' || type === 'Q' || type === 'X';
}
