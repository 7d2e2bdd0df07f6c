import { expect, test } from './fixtures';

// A message memory learned no fact from says so under its reply ("kept as an exchange"), and the
// user can add what memory should know from it as a fact of their own.

test('a reply whose message taught no fact says so, and a fact can be added from there', async ({ page, app, chat, memory }) => {
  await chat.newConversation();
  await chat.exchange('The tram was stuck behind a delivery van for twenty minutes this morning.');
  const kept = page.getByTestId('memory-kept').last();
  await expect(kept).toContainText('no fact learned; kept as an exchange');

  await kept.getByTestId('memory-kept-add').click();
  const input = kept.getByTestId('memory-kept-input');
  await expect(input).toHaveValue('The tram was stuck behind a delivery van for twenty minutes this morning.');
  await input.fill('I commute to work by tram');
  await app.screenshot('memory-kept-add');
  await kept.getByTestId('memory-kept-save').click();
  await expect(kept).toHaveAttribute('data-state', 'added');
  await expect(kept).toContainText('added “I commute to work by tram” as a fact');
  await memory.waitForFact('commute to work by tram');
  await app.switchToDarkTheme();
  await app.screenshot('memory-kept-added-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await kept.scrollIntoViewIfNeeded();
  await app.screenshot('memory-kept-added-phone');
});
