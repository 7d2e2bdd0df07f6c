import { expect, test } from '../fixtures';

// Pictures of undo: the notice under a reply, and the toast after a correction on the memory page,
// in the light and dark themes and on a 390-pixel phone.

for (const look of ['light', 'dark', 'phone'] as const) {
  test(`undo notice and toast (${look})`, async ({ page, app, chat }) => {
    test.setTimeout(120_000);
    if (look === 'phone') await page.setViewportSize({ width: 390, height: 844 });
    if (look === 'dark') await app.switchToDarkTheme();
    await chat.newConversation();
    await chat.exchange('I live in Porto.');
    await chat.exchange('I moved last month, I live in Lyon now.');
    await expect(chat.assistantMessages.last().getByTestId('memory-notice')).toContainText('replaced', { timeout: 20_000 });
    await app.screenshot(`undo-notice-${look}`);

    await page.goto('/memory');
    await app.waitForHydration();
    await page.getByTestId('memory-fact').filter({ hasText: 'Lyon' }).getByTestId('memory-fact-delete').click();
    await page.getByTestId('memory-fact-delete-dialog-confirm').click();
    await expect(page.getByTestId('undo-toast')).toContainText('Fact deleted.');
    await app.screenshot(`undo-toast-${look}`);
  });
}
