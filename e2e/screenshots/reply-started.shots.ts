import { expect, test } from '../fixtures';

// A reply that has started (its id is known, its context is being gathered) but has no words yet
// shows the typing dots inside its own message. The browser's fetch of /api/chat is wrapped so
// that, once the test asks for it (holdReply), the stream's first chunk arrives and the rest waits
// until the picture is taken. Light, dark and a 390-pixel phone, written to e2e/artifacts/.

declare global {
  interface Window {
    holdReply?: boolean;
    releaseReply?: () => void;
  }
}

test('a reply started, before its first word', async ({ page, app, chat }) => {
  await page.addInitScript(() => {
    const realFetch = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.endsWith('/api/chat') || !response.body || !window.holdReply) return response;
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      window.releaseReply = release;
      // The stream's events before its first words (the start, the metadata) go through; from the
      // first text event on, everything waits for the release. A read may carry several events.
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const encoder = new TextEncoder();
      let holding = false;
      const held = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (holding) await released;
          const next = await reader.read();
          if (next.done) return controller.close();
          if (holding) return controller.enqueue(encoder.encode(next.value));
          const at = next.value.search(/data: \{"type":"text-/u);
          if (at === -1) return controller.enqueue(encoder.encode(next.value));
          holding = true;
          if (at > 0) controller.enqueue(encoder.encode(next.value.slice(0, at)));
          await released;
          controller.enqueue(encoder.encode(next.value.slice(at)));
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return new Response(held, { status: response.status, headers: response.headers });
    };
  });
  await chat.newConversation();
  await chat.exchange('I am learning to play the cello.');
  await page.evaluate(() => {
    window.holdReply = true;
  });
  await chat.send('What instrument am I learning?');
  const started = chat.assistantMessages.last().getByTestId('thinking');
  await expect(started).toBeVisible();

  await app.screenshot('reply-started');
  await app.switchToDarkTheme();
  await app.screenshot('reply-started-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await app.screenshot('reply-started-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.evaluate(() => window.releaseReply?.());
  await expect(chat.assistantMessages.last()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  await expect(chat.assistantMessages.last().getByTestId('thinking')).toHaveCount(0);
});
