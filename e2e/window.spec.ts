import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { artifactPath } from './pages/app-page';
import { textIn } from './pages/chat-page';

// The correction holds where the person is: one message can be deleted with a dialog that counts
// what goes with it, a request to forget is done before the reply (which does not repeat the
// thing) and marked at once, and after "forget everything" the chat marks every earlier message.

/** The same view in light, dark and on a 390-pixel phone (animations off, so a resized layout has settled). */
async function shoot(page: Page, name: string) {
  const take = async (variant: string) => {
    await page.mouse.move(0, 0);
    await page.screenshot({ path: artifactPath(`${name}-${variant}.png`), animations: 'disabled' });
  };
  await take('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await take('dark');
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('composer')).toBeInViewport();
  await take('phone');
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: 'light' });
}

test('deleting one message: the dialog counts what goes with it, and the message and its fact go', async ({ page, chat, memory }) => {
  test.setTimeout(90_000);
  await chat.newConversation();
  await chat.exchange('My grandmother lives in Coimbra.');
  await memory.waitForFact('grandmother');
  // The offline model answers by quoting it: that reply repeats the statement.
  await chat.exchange('Where does my grandmother live?');
  await expect(textIn(chat.assistantMessages.last())).toContainText('My grandmother lives in Coimbra');

  const statement = chat.userMessages.first();
  await statement.hover();
  await statement.getByTestId('delete-message').click();
  const dialog = page.getByTestId('delete-message-dialog');
  await expect(dialog).toContainText('Delete this message?');
  await expect(dialog.getByTestId('delete-plan-effects')).toContainText('1 fact learned only from it is forgotten');
  await expect(dialog.getByTestId('delete-plan-effects')).toContainText('1 remembered exchange is made again without it');
  await shoot(page, 'window-delete-message-dialog');
  const deleted = page.waitForResponse((r) => /\/api\/messages\/[0-9a-f-]{36}$/u.test(r.url()) && r.request().method() === 'DELETE');
  await page.getByTestId('delete-message-dialog-confirm').click();
  const outcome = (await (await deleted).json()) as { factsEnded: number };
  expect(outcome.factsEnded).toBe(1);
  await expect(dialog).not.toBeVisible();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.userMessages.filter({ hasText: 'grandmother lives in Coimbra' })).toHaveCount(0);
  // The reply that repeated it stays, with that sentence marked forgotten.
  await expect(chat.assistantMessages.last().getByTestId('message-marks-note')).toContainText('forgotten');
  await expect.poll(async () => (await memory.facts('active')).some((f) => f.content.includes('grandmother'))).toBe(false);

  // A reply too: no fact was learned from it, its exchange is remembered again without it.
  const reply = chat.assistantMessages.last();
  await reply.hover();
  await reply.getByTestId('delete-message').click();
  await expect(dialog).toContainText('Delete this reply?');
  await expect(dialog.getByTestId('delete-plan-effects')).toHaveText('1 remembered exchange is made again without it');
  await page.getByTestId('delete-message-dialog-confirm').click();
  await expect(dialog).not.toBeVisible();
  await expect(chat.assistantMessages).toHaveCount(1);
});

test('forgetting in the chat: the reply confirms without repeating it, and the mark shows at once', async ({ page, chat, memory }) => {
  test.setTimeout(90_000);
  await chat.newConversation();
  await chat.exchange('I love bluegrass music.');
  await memory.waitForFact('bluegrass');

  await chat.exchange('Could you please forget that I love bluegrass music?');
  const confirmation = chat.assistantMessages.last();
  await expect(textIn(confirmation)).toContainText('forgotten');
  await expect(textIn(confirmation)).not.toContainText('bluegrass');
  // No reload: the request's named part and the earlier statement are marked forgotten.
  await expect(chat.userMessages.nth(1).getByTestId('forgotten-part')).toContainText('that I love bluegrass music');
  await expect(chat.userMessages.first().getByTestId('forgotten-part')).toBeVisible();
  expect((await memory.facts('active')).some((f) => f.content.includes('bluegrass'))).toBe(false);
  // The first reply's notice no longer names what it had learned, and the confirmation's says it forgot.
  await expect(chat.assistantMessages.first().getByTestId('memory-notice')).not.toContainText('bluegrass');
  await expect(confirmation.getByTestId('memory-notice')).toContainText('forgot');
  await shoot(page, 'window-forget-in-chat');

  // Nothing matches: said plainly.
  await chat.exchange('Please forget that I keep a pet iguana.');
  await expect(textIn(chat.assistantMessages.last())).toContainText('nothing to forget');
  await expect(textIn(chat.assistantMessages.last())).not.toContainText('iguana');
  await expect(page.getByTestId('chat-error')).toHaveCount(0);
});

test('after "forget everything" the chat marks every earlier message forgotten, and later ones are not', async ({ page, chat }) => {
  test.setTimeout(90_000);
  await chat.newConversation();
  await chat.exchange('My sister is called Lindiwe.');
  expect((await page.request.delete('/api/memory')).status()).toBe(200);
  await page.reload();
  await expect(chat.userMessages.first().getByTestId('forgotten-part')).toContainText('Lindiwe');
  await expect(chat.assistantMessages.first().getByTestId('message-marks-note')).toContainText('This reply was forgotten');
  await shoot(page, 'window-forget-everything');

  await chat.exchange('What is my sister called?');
  await expect(textIn(chat.assistantMessages.last())).not.toContainText('Lindiwe');
  await expect(chat.userMessages.last().getByTestId('forgotten-part')).toHaveCount(0);
});
