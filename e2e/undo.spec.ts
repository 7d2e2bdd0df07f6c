import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';

// Undo, as a person meets it: the notice under a reply says what that turn changed in memory and
// from which message, with Undo per change; a correction made on the memory page offers Undo in a
// toast. The server runs the built-in offline model.

test('the notice under a reply names what it learned and replaced, and Undo makes the older fact current again', async ({
  page,
  chat,
  memory,
}) => {
  test.setTimeout(120_000);
  await chat.newConversation();
  await chat.exchange('I live in Porto.');
  const first = chat.assistantMessages.last().getByTestId('memory-notice');
  await expect(first).toContainText('Memory updated: learned “I live in Porto”', { timeout: 20_000 });
  await expect(first.getByTestId('memory-notice-source')).toHaveText('“I live in Porto.”');

  await chat.exchange('I moved last month, I live in Lyon now.');
  const second = chat.assistantMessages.last().getByTestId('memory-notice');
  const replaced = second.locator('[data-testid="memory-change"][data-kind="replaced"]');
  await expect(replaced).toContainText('replaced “I live in Porto”', { timeout: 20_000 });
  await expect(replaced).toContainText('Lyon');

  // The source link scrolls to the message the change came from.
  await second.getByTestId('memory-notice-source').click();
  await expect(chat.userMessages.last()).toBeInViewport();

  await replaced.getByTestId('memory-change-undo').click();
  await expect(replaced.getByTestId('memory-change-undone')).toBeVisible();
  await expect.poll(async () => (await memory.facts('active')).map((f) => f.content)).toEqual(['I live in Porto']);
  // Nothing else offers to undo it again.
  await expect(page.getByTestId('undo-toast')).toHaveCount(0);
});

test('forgetting everything on the memory page offers Undo in a toast, which brings the facts back', async ({
  page,
  app,
  chat,
  memory,
}) => {
  test.setTimeout(120_000);
  await chat.newConversation();
  await chat.exchange('My brother is called Tomasz.');
  await memory.waitForFact('Tomasz');
  await page.goto('/memory');
  await app.waitForHydration();

  await page.getByTestId('forget-everything').click();
  const forgot = page.waitForResponse((r) => r.url().endsWith('/api/memory') && r.request().method() === 'DELETE');
  await page.getByTestId('forget-dialog-confirm').click();
  const { undo } = (await (await forgot).json()) as { undo: { id: string } };
  await expect(page.getByTestId('forget-result')).toContainText('Forgotten');
  const toast = page.getByTestId('undo-toast');
  await expect(toast).toContainText('Everything memlens remembered is forgotten.');
  await expect(toast).toContainText(/until \d/u);
  expect(await memory.facts()).toEqual([]);

  await toast.getByTestId('undo').click();
  await expect(toast).toContainText('Undone.');
  await expect.poll(async () => (await memory.facts('active')).map((f) => f.content)).toEqual(['My brother is called Tomasz']);
  await expect(page.getByTestId('memory-fact').filter({ hasText: 'Tomasz' })).toHaveCount(1);

  // A second undo of the same change is refused, with the server's words.
  const again = await page.request.post(`/api/corrections/${undo.id}/undo`);
  expect(again.status()).toBe(409);
  expect((await again.json()).error.code).toBe('already_undone');
});

test('a deleted message: the dialog says for how long it can be undone, the toast offers Undo, and so does Recent changes on /memory after the toast is gone', async ({
  page,
  app,
  chat,
  memory,
}) => {
  test.setTimeout(180_000);
  const conversationId = await chat.newConversation();
  await chat.exchange('My grandmother lives in Coimbra.');
  await memory.waitForFact('grandmother');
  await chat.exchange('I play the cello on Sundays.');
  const statement = () => chat.userMessages.filter({ hasText: 'My grandmother lives in Coimbra.' });
  const dialog = page.getByTestId('delete-message-dialog');
  const toast = page.getByTestId('undo-toast');

  const deleteStatement = async () => {
    await statement().hover();
    await statement().getByTestId('delete-message').click();
    await expect(dialog.getByTestId('delete-plan-undo')).toContainText('You can undo this for 30 minutes');
  };
  const confirmDeletion = async () => {
    await page.getByTestId('delete-message-dialog-confirm').click();
    await expect(dialog).not.toBeVisible();
    await expect(statement()).toHaveCount(0);
    await expect(toast).toContainText('Message deleted.');
  };

  // In the chat: the toast's Undo brings the message back where it was, and its fact.
  await deleteStatement();
  await expect(dialog).not.toContainText('cannot be undone');
  await pictures(page, app, 'undo-delete-dialog', () => expect(dialog.getByTestId('delete-plan-undo')).toBeInViewport());
  await confirmDeletion();
  await toast.getByTestId('undo').click();
  await expect(toast).toContainText('Undone.');
  await expect(statement()).toHaveCount(1);
  await expect(chat.userMessages.first()).toContainText('My grandmother lives in Coimbra.');
  await memory.waitForFact('grandmother');

  // Again, then leave the page: the toast goes with it, Recent changes keeps the offer.
  await deleteStatement();
  await confirmDeletion();
  await expect.poll(async () => (await memory.facts('active')).some((f) => f.content.includes('grandmother'))).toBe(false);
  await page.goto('/memory');
  await app.waitForHydration();
  await expect(toast).toHaveCount(0);
  const panel = page.getByTestId('memory-changes');
  const removals = panel.locator('[data-testid="recent-change"][data-kind="message_remove"]');
  await expect(removals).toHaveCount(2);
  const latest = removals.first();
  await expect(latest.getByTestId('recent-change-what')).toHaveText('Message deleted');
  await expect(latest.getByTestId('recent-change-by')).toHaveText('by you');
  await expect(latest.getByTestId('recent-change-status')).toContainText(/can be undone until \d/u);
  await expect(removals.nth(1).getByTestId('recent-change-undone')).toHaveText('(undone)');
  await expect(removals.nth(1).getByTestId('recent-change-undo')).toHaveCount(0);
  // What memlens learned from the message is listed, never named once it is gone; no internal words.
  // It waits for the later deletion, which ended it, to be undone first.
  const learned = panel.locator('[data-testid="recent-change"][data-kind="fact_learned"]').last();
  await expect(learned.getByTestId('recent-change-what')).toHaveText('Fact learned from your message (deleted since)');
  await expect(learned.getByTestId('recent-change-status')).toContainText('a later change touched the same memory: undo that first');
  await expect(learned.getByTestId('recent-change-undo')).toHaveCount(0);
  await expect(panel).not.toContainText('Coimbra');
  await expect(panel).not.toContainText(/message_remove|fact_learned|\[forgotten/u);
  await pictures(page, app, 'undo-recent-changes', () => panel.getByTestId('change-list').scrollIntoViewIfNeeded());

  await latest.getByTestId('recent-change-undo').click();
  await expect(latest.getByTestId('recent-change-undone')).toHaveText('(undone)');
  await expect(latest.getByTestId('recent-change-undo')).toHaveCount(0);
  await memory.waitForFact('grandmother');
  // The list is read again: the fact is back, named as it reads now, and its own undo is free.
  await expect(learned.getByTestId('recent-change-text')).toContainText('grandmother');
  await expect(learned.getByTestId('recent-change-undo')).toBeVisible();

  // Back in the chat, by the sidebar: the message is there again, in its place.
  await page.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"] a`).first().click();
  await page.waitForURL(`**/c/${conversationId}`);
  await expect(statement()).toHaveCount(1);
  await expect(chat.userMessages.first()).toContainText('My grandmother lives in Coimbra.');
  await expect(chat.userMessages).toHaveCount(2);
});

/** The same view in the light and dark themes and on a 390-pixel phone, as e2e/artifacts/<name>-<variant>.png. */
async function pictures(page: Page, app: AppPage, name: string, shown: () => Promise<unknown>) {
  const size = page.viewportSize()!;
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
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: 'light' });
}
