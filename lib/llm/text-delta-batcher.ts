import type { UIMessageChunk } from 'ai';

/**
 * A model streams its reply a token at a time, and each chunk written costs a trip through several
 * web streams, an SSE frame and a socket write. Text deltas that arrive within `windowMs` of the
 * first one waiting go out as one chunk: invisible at that interval, and several times fewer writes.
 * Any other chunk sends the waiting text first, so the order never changes.
 */
export class TextDeltaBatcher {
  private waiting: Extract<UIMessageChunk, { type: 'text-delta' }> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly write: (chunk: UIMessageChunk) => void,
    private readonly windowMs = 30,
  ) {}

  push(chunk: UIMessageChunk): void {
    if (chunk.type === 'text-delta' && this.waiting?.id === chunk.id) {
      this.waiting = { ...this.waiting, delta: this.waiting.delta + chunk.delta };
      return;
    }
    this.flush();
    if (chunk.type !== 'text-delta') {
      this.write(chunk);
      return;
    }
    this.waiting = chunk;
    this.timer = setTimeout(() => this.flush(), this.windowMs);
  }

  /** Sends the text waiting, if any. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) this.write(waiting);
  }
}
