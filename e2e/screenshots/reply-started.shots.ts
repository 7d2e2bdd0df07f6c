import { expect, test } from '../fixtures';
import { HeldReply } from '../pages/held-reply';

// A reply that has started (its id is known, its context is being gathered) but has no words yet
// shows the typing dots inside its own message. The reply is held before its first words
// (e2e/pages/held-reply.ts) until the picture is taken. Light, dark and a 390-pixel phone, written to e2e/artifacts/.

test('a reply started, before its first word', async ({ page, app, chat }) => {
  const held = new HeldReply(page);
  await held.install();
  await chat.newConversation();
  await chat.exchange('I am learning to play the cello.');
  await held.hold('before-text');
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

  await held.release();
  await expect(chat.assistantMessages.last()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  await expect(chat.assistantMessages.last().getByTestId('thinking')).toHaveCount(0);
});
