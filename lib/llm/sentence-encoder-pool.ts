import type { Worker } from 'node:worker_threads';

/**
 * A pool of worker threads that embed texts in batches, so the model's CPU time never blocks the
 * server's event loop. Threads start on the first call that needs one; an idle thread does not keep
 * the process alive, and they stop with it. Texts that wait while every thread is busy go together in
 * the next batch (up to `maxBatch`): a batch of 64 costs about a third per sentence of one at a time.
 * Urgent texts (a question before its reply) go first, in batches of their own, and may start threads
 * kept for them alone, so a question never waits for a long batch of background work.
 * A thread that fails a batch, throws or exits fails the calls it was serving (an embedder failure
 * for the caller) and is replaced on the next call.
 */
export type EncoderPoolOptions = {
  /** Starts one thread; it answers `{ id, texts }` with `{ id, vectors }` or `{ id, error }`. */
  spawn: () => Worker;
  /** Threads for any work. */
  size: number;
  /** Threads more, for urgent texts only. */
  reservedForUrgent: number;
  maxBatch: number;
};

type Request = {
  vectors: number[][];
  remaining: number;
  settled: boolean;
  resolve: (vectors: number[][]) => void;
  reject: (error: Error) => void;
};
type Slot = { request: Request; index: number; text: string };
type Thread = { worker: Worker; urgentOnly: boolean; batch?: { id: number; slots: Slot[] } };
type Answer = { id: number; vectors?: number[][]; error?: string };

export class EncoderPool {
  private threads: Thread[] = [];
  private urgent: Slot[] = [];
  private queue: Slot[] = [];
  private nextBatchId = 0;
  private dispatchScheduled = false;

  constructor(private readonly options: EncoderPoolOptions) {}

  /** The vectors of `texts`, in order; rejects when the thread serving them fails. Urgent texts go first. */
  embed(texts: string[], { urgent = false } = {}): Promise<number[][]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const request: Request = { vectors: new Array(texts.length), remaining: texts.length, settled: false, resolve, reject };
      const line = urgent ? this.urgent : this.queue;
      for (const [index, text] of texts.entries()) line.push({ request, index, text });
      this.scheduleDispatch();
    });
  }

  /** Stops every thread now, failing what they were doing and what waited; the next call starts afresh. */
  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    const stopped = new Error('the sentence encoder was shut down');
    for (const slot of [...this.urgent, ...this.queue]) this.fail(slot.request, stopped);
    for (const thread of threads) for (const slot of thread.batch?.slots ?? []) this.fail(slot.request, stopped);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  /** Once per tick, so callers of the same tick share a batch. */
  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    // Texts of a call that already failed are not embedded.
    this.urgent = this.urgent.filter((slot) => !slot.request.settled);
    this.queue = this.queue.filter((slot) => !slot.request.settled);
    try {
      while (this.urgent.length > 0 && this.send(this.urgent, this.threadFor(true)));
      while (this.queue.length > 0 && this.send(this.queue, this.threadFor(false)));
    } catch (cause) {
      // No thread could start (its entry file missing, too many threads): everything waiting fails now.
      const error = new Error(`the sentence encoder failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
      for (const slot of [...this.urgent.splice(0), ...this.queue.splice(0)]) this.fail(slot.request, error);
    }
  }

  /** An idle thread for this kind of work, started if the pool may; background work never takes an urgent-only one. */
  private threadFor(urgent: boolean): Thread | undefined {
    const idle = this.threads.find((thread) => !thread.batch && (urgent || !thread.urgentOnly));
    if (idle) return idle;
    const shared = this.threads.filter((thread) => !thread.urgentOnly).length;
    if (shared < this.options.size) return this.startThread(false);
    if (urgent && this.threads.length - shared < this.options.reservedForUrgent) return this.startThread(true);
    return undefined;
  }

  /** The next batch of a line to a thread; false when there is no thread. */
  private send(line: Slot[], thread: Thread | undefined): boolean {
    if (!thread) return false;
    const slots = line.splice(0, this.options.maxBatch);
    const id = ++this.nextBatchId;
    thread.batch = { id, slots };
    thread.worker.ref();
    thread.worker.postMessage({ id, texts: slots.map((slot) => slot.text) });
    return true;
  }

  private startThread(urgentOnly: boolean): Thread {
    const thread: Thread = { worker: this.options.spawn(), urgentOnly };
    thread.worker.unref();
    thread.worker.on('message', (answer: Answer) => this.answered(thread, answer));
    thread.worker.on('error', (error) => this.lost(thread, error));
    thread.worker.on('exit', (code) => this.lost(thread, new Error(`its thread stopped (exit code ${code})`)));
    this.threads.push(thread);
    return thread;
  }

  private answered(thread: Thread, answer: Answer): void {
    const batch = thread.batch;
    if (!batch || batch.id !== answer.id) return;
    thread.batch = undefined;
    thread.worker.unref();
    if (answer.vectors) {
      for (const [i, slot] of batch.slots.entries()) this.fill(slot, answer.vectors[i]);
    } else {
      const error = new Error(`the sentence encoder failed: ${answer.error}`);
      for (const slot of batch.slots) this.fail(slot.request, error);
    }
    this.scheduleDispatch();
  }

  /** A thread that threw or exited: what it was doing fails, and a new thread takes the queue. */
  private lost(thread: Thread, cause: Error): void {
    if (!this.threads.includes(thread)) return;
    this.threads = this.threads.filter((other) => other !== thread);
    const error = new Error(`the sentence encoder failed: ${cause.message}`, { cause });
    for (const slot of thread.batch?.slots ?? []) this.fail(slot.request, error);
    thread.batch = undefined;
    void thread.worker.terminate();
    this.scheduleDispatch();
  }

  private fill({ request, index }: Slot, vector: number[]): void {
    if (request.settled) return;
    request.vectors[index] = vector;
    if (--request.remaining > 0) return;
    request.settled = true;
    request.resolve(request.vectors);
  }

  private fail(request: Request, error: Error): void {
    if (request.settled) return;
    request.settled = true;
    request.reject(error);
  }
}
