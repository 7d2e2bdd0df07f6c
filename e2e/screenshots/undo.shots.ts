import { expect, test } from '../fixtures';

// Pictures of undo: the notice under a reply, and the toast after a correction on the memory page,
// each in the light and dark themes and on a 390-pixel phone.

test('undo notice and toast', async ({ page, app, chat }) => {
  test.setTimeout(180_000);
  await chat.newConversation();
  await chat.exchange('I live in Porto.');
  await chat.exchange('I moved last month, I live in Lyon now.');
  const notice = chat.assistantMessages.last().getByTestId('memory-notice');
  await expect(notice).toContainText('replaced', { timeout: 20_000 });
  const pictures = async (name: string, shown: () => Promise<void>) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await shown();
    await app.screenshot(`${name}-light`);
    await app.switchToDarkTheme();
    await app.screenshot(`${name}-dark`);
    await page.setViewportSize({ width: 390, height: 844 });
    // The sidebar slides away at this width: picture the page once it has.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await shown();
    await app.screenshot(`${name}-phone`);
  };
  await pictures('undo-notice', async () => {
    await notice.scrollIntoViewIfNeeded();
    await expect(notice).toBeInViewport();
  });

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/memory');
  await app.waitForHydration();
  await page.getByTestId('memory-fact').filter({ hasText: 'Lyon' }).getByTestId('memory-fact-delete').click();
  await page.getByTestId('memory-fact-delete-dialog-confirm').click();
  const toast = page.getByTestId('undo-toast');
  await pictures('undo-toast', () => expect(toast).toContainText('Fact deleted.'));
});
