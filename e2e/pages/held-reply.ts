import type { Page } from '@playwright/test';

declare global {
  interface Window {
    holdReply?: 'before-text' | 'after-first-words';
    releaseReply?: () => void;
  }
}

/**
 * Wraps the page's fetch of /api/chat so a test can see a reply mid-stream whatever the machine's
 * speed: once `hold(…)` is called, the next reply's events go through up to its first text event
 * ('before-text') or up to and including it ('after-first-words'), and the rest waits for `release()`.
 * A read may carry several events, so the cut is made inside it.
 */
export class HeldReply {
  constructor(readonly page: Page) {}

  /** Call before the page loads. */
  async install() {
    await this.page.addInitScript(() => {
      const realFetch = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const response = await realFetch(input, init);
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        const mode = window.holdReply;
        if (!url.endsWith('/api/chat') || !response.body || !mode) return response;
        window.holdReply = undefined;
        let release: () => void = () => {};
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        window.releaseReply = release;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        const encoder = new TextEncoder();
        let holding = false;
        // Where the held part starts in a read, or -1 while the read is let through whole.
        const cutIn = (text: string) => {
          if (mode === 'before-text') return text.search(/data: \{"type":"text-/u);
          const first = text.search(/data: \{"type":"text-delta"/u);
          if (first === -1) return -1;
          const end = text.indexOf('\n\n', first);
          return end === -1 ? text.length : end + 2;
        };
        const held = new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (holding) await released;
            const next = await reader.read();
            if (next.done) return controller.close();
            if (holding) return controller.enqueue(encoder.encode(next.value));
            const at = cutIn(next.value);
            if (at === -1) return controller.enqueue(encoder.encode(next.value));
            holding = true;
            if (at > 0) controller.enqueue(encoder.encode(next.value.slice(0, at)));
            await released;
            if (at < next.value.length) controller.enqueue(encoder.encode(next.value.slice(at)));
          },
          cancel: (reason) => reader.cancel(reason),
        });
        return new Response(held, { status: response.status, headers: response.headers });
      };
    });
  }

  /** The next reply stops where `mode` says until `release()`. */
  async hold(mode: 'before-text' | 'after-first-words') {
    await this.page.evaluate((m) => {
      window.holdReply = m;
    }, mode);
  }

  async release() {
    await this.page.evaluate(() => window.releaseReply?.());
  }
}
