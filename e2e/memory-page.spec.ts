import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The Memory page (/memory): opened from the home screen and from the header; search facts (English
// and Chinese), add one by hand, see which replies used a fact and open one, delete a fact and a
// remembered exchange, edit a summary, forget everything. Every test gets a fresh guest; the server
// runs the built-in offline model with 60 ms between words (~2.5 s per reply).

async function episodeTotal(page: Page, q = ''): Promise<number> {
  const response = await page.request.get(`/api/episodes${q ? `?q=${encodeURIComponent(q)}` : ''}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { total: number }).total;
}

const factCard = (page: Page, text: string) =>
  page.getByTestId('memory-fact').filter({ has: page.getByTestId('memory-fact-content').filter({ hasText: text }) });

test('the home screen links to an empty Memory page that says how it fills up', async ({ page, app }) => {
  await page.goto('/');
  await app.waitForHydration();
  await page.getByTestId('open-memory').click();
  await page.waitForURL(/\/memory$/);
  await expect(page).toHaveTitle(/Memory/);
  await expect(page.getByTestId('memory-link')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('facts-empty')).toContainText('No facts yet');
  await expect(page.getByTestId('episodes-empty')).toContainText('Nothing remembered yet');
  await expect(page.getByTestId('summaries-empty')).toBeVisible();
  await expect(page.getByTestId('forget-everything')).toBeVisible();
});

test('search, add, see where a fact was used, delete a fact and an exchange, edit a summary, forget everything', async ({
  page,
  app,
  chat,
  memory,
}) => {
  test.setTimeout(180_000);
  const conversationId = await chat.newConversation();
  await chat.exchange('My cat is called Miso.');
  await chat.exchange('I live in Berlin.');
  await chat.exchange('我最喜欢的茶是龙井。');
  await memory.waitForFact('Miso');
  await memory.waitForFact('Berlin');
  await memory.waitForFact('龙井');
  // A reply that answers from memory and cites the fact.
  await chat.exchange('What is my cat called?');
  const replyId = (await chat.assistantMessages.last().getAttribute('data-message-id'))!;
  await memory.waitToSettle();

  // From the header.
  await page.getByTestId('memory-link').click();
  await page.waitForURL(/\/memory$/);
  await app.waitForHydration();
  const list = page.getByTestId('fact-list');
  await expect(list.getByTestId('memory-fact')).toHaveCount((await memory.facts('active')).length);
  await expect(page.getByTestId('episodes-count')).toHaveText(`${await episodeTotal(page)} exchanges`);

  // Search, English (case aside) and Chinese.
  const search = page.getByTestId('fact-search');
  await search.fill('miso');
  await expect(page.getByTestId('facts-found')).toHaveText('1 fact containing “miso”');
  await expect(list.getByTestId('memory-fact')).toHaveCount(1);
  await expect(list.getByTestId('memory-fact-content')).toContainText('Miso');
  await search.fill('龙井');
  await expect(list.getByTestId('memory-fact')).toHaveCount(1);
  await expect(list.getByTestId('memory-fact-content')).toContainText('龙井');
  await search.fill('zebra');
  await expect(page.getByTestId('facts-empty')).toHaveText('No fact contains “zebra”.');
  await search.press('Escape');
  await expect(search).toHaveValue('');

  // Where the fact came from, and the reply that used it: links into the conversation.
  const miso = factCard(page, 'Miso');
  await expect(miso.getByTestId('memory-fact-source')).toContainText('My cat is called Miso');
  await expect(miso.getByTestId('memory-fact-uses')).toHaveText('Cited in 1 reply');
  await expect(miso.getByTestId('memory-fact-sent')).toHaveText(/^Sent with [1-9]\d* repl(y|ies)$/u);
  await miso.getByTestId('memory-fact-uses').click();
  const reply = miso.getByTestId('memory-fact-reply');
  await expect(reply).toHaveAttribute('href', `/c/${conversationId}#message-${replyId}`);

  // Add a fact by hand (keyboard only).
  await page.getByTestId('fact-add-toggle').click();
  await expect(page.getByTestId('fact-add-input')).toBeFocused();
  await page.keyboard.type('I am allergic to hazelnuts.');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('fact-notice')).toContainText('Added');
  const hazelnuts = factCard(page, 'hazelnuts');
  await expect(hazelnuts).toBeVisible();
  await expect(hazelnuts.getByTestId('memory-fact-sources')).toHaveText('added by you');
  expect((await memory.facts('active')).map((f) => f.content)).toContain('I am allergic to hazelnuts.');
  // The same again is refused, and says so.
  await page.getByTestId('fact-add-toggle').click();
  await page.getByTestId('fact-add-input').fill('I am allergic to hazelnuts.');
  await page.getByTestId('fact-add-save').click();
  await expect(page.getByTestId('fact-add-error')).toHaveText('memlens already keeps this fact.');
  await page.getByTestId('fact-add-input').press('Escape');
  await expect(page.getByTestId('fact-add-form')).toHaveCount(0);

  // Its history.
  await hazelnuts.getByTestId('memory-fact-history-toggle').click();
  await expect(hazelnuts.getByTestId('memory-fact-event')).toHaveText(/Added\s*by you/);

  // Screenshots: light, dark, phone.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.getByTestId('memory-page').evaluate((el) => el.scrollTo(0, 0));
  await app.screenshot('memory-page');
  await app.switchToDarkTheme();
  await page.getByTestId('memory-episodes').scrollIntoViewIfNeeded();
  await app.screenshot('memory-page-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('memory-page').evaluate((el) => el.scrollTo(0, 0));
  await expect(page.getByTestId('fact-add-toggle')).toBeInViewport();
  await app.screenshot('memory-page-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Delete a fact: it goes, and every later context is without it (the correction mechanism).
  const berlin = factCard(page, 'Berlin');
  await berlin.getByTestId('memory-fact-delete').click();
  const factDialog = page.getByTestId('memory-fact-delete-dialog');
  await expect(factDialog).toContainText('is deleted with its history');
  await page.getByTestId('memory-fact-delete-dialog-confirm').click();
  await expect(page.getByTestId('fact-notice')).toContainText(/Forgotten\. \d+ messages? marked/);
  await expect(factCard(page, 'Berlin')).toHaveCount(0);
  expect((await memory.facts()).some((f) => f.content.includes('Berlin'))).toBe(false);

  // Search and delete a remembered exchange.
  const before = await episodeTotal(page);
  await page.getByTestId('episode-search').fill('颐和园');
  await expect(page.getByTestId('episodes-empty')).toHaveText('No remembered exchange contains “颐和园”.');
  await page.getByTestId('episode-search').fill('龙井');
  await expect(page.getByTestId('episodes-found')).toHaveText('1 exchange containing “龙井”');
  const episode = page.getByTestId('memory-episode');
  await expect(episode).toHaveCount(1);
  await expect(episode.getByTestId('memory-episode-link')).toHaveAttribute('href', new RegExp(`^/c/${conversationId}#message-`));
  await episode.getByTestId('memory-episode-delete').click();
  await expect(page.getByTestId('memory-episode-delete-dialog')).toContainText('Facts learned from it stay');
  await page.getByTestId('memory-episode-delete-dialog-confirm').click();
  await expect(page.getByTestId('episode-notice')).toContainText('Forgotten. 2 messages marked');
  await expect(page.getByTestId('episodes-empty')).toBeVisible();
  expect(await episodeTotal(page, '龙井')).toBe(0);
  expect(await episodeTotal(page)).toBe(before - 1);
  await page.getByTestId('episode-search').fill('');
  await expect(page.getByTestId('episodes-count')).toHaveText(`${before - 1} exchanges`);

  // A conversation's summary: write one by hand.
  const summary = page.locator(`[data-testid="memory-summary"][data-conversation-id="${conversationId}"]`);
  await summary.getByTestId('summary-edit').click();
  await summary.getByTestId('summary-input').fill('We talked about my cat.');
  await summary.getByTestId('summary-save').click();
  await expect(summary.getByTestId('summary-content')).toHaveText('We talked about my cat.');

  // Open the message a fact came from (the first of the conversation): the chat scrolls up to it and flashes it.
  await page.getByTestId('fact-search').fill('Miso');
  const source = factCard(page, 'Miso').getByTestId('memory-fact-source');
  const sourceId = (await source.getAttribute('data-message-id'))!;
  await source.click();
  await page.waitForURL(new RegExp(`/c/${conversationId}#message-${sourceId}$`));
  const stated = page.locator(`[data-testid="message"][data-message-id="${sourceId}"]`);
  await expect(stated).toHaveAttribute('data-flash', 'true');
  await expect(stated).toBeInViewport();
  await page.goBack();
  await page.waitForURL(/\/memory$/);
  await app.waitForHydration();

  // Forget everything: the dialog says what goes, and afterwards the page is empty.
  await page.getByTestId('forget-everything').click();
  const dialog = page.getByTestId('forget-dialog');
  await expect(dialog.getByTestId('forget-plan-removed')).toContainText('facts');
  await expect(dialog.getByTestId('forget-plan-kept')).toHaveText('1 conversation with 8 messages');
  await page.getByTestId('forget-dialog-confirm').click();
  await expect(page.getByTestId('forget-result')).toContainText('Forgotten');
  await page.getByTestId('fact-search').fill('');
  await expect(page.getByTestId('facts-empty')).toContainText('No facts yet');
  await expect(page.getByTestId('episodes-empty')).toContainText('Nothing remembered yet');
  expect(await memory.facts()).toEqual([]);
  expect(await episodeTotal(page)).toBe(0);
});
