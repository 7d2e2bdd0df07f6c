import { expect, test } from './fixtures';

// One statement is one memory item on /memory: a sentence read as two kinds (family and home) is
// listed once, with both kinds as badges; deleting it forgets both facts.

test('a statement read as two kinds is one item on /memory, and deleting it forgets both', async ({ page, app, chat, memory }) => {
  await chat.newConversation();
  await chat.exchange('My husband Mateo and I moved to Ghent last spring.');
  await chat.exchange('I am allergic to sesame.');
  await memory.waitForFact('sesame');
  await expect.poll(async () => (await memory.facts('active')).filter((f) => f.content.includes('Ghent')).length).toBe(1);
  const [item] = (await memory.facts('active')).filter((f) => f.content.includes('Ghent'));
  expect(item.kinds).toEqual(['location', 'family']);
  expect(item.ids).toHaveLength(2);

  await page.goto('/memory');
  await app.waitForHydration();
  const list = page.getByTestId('fact-list');
  // By its text: another fact's source names the conversation, whose title holds the same words.
  const ghent = list.getByTestId('memory-fact').filter({ has: page.getByTestId('memory-fact-content').filter({ hasText: 'Ghent' }) });
  await expect(ghent).toHaveCount(1);
  await expect(ghent.getByTestId('memory-fact-kind')).toHaveText(['Where I live', 'Family']);
  await expect(list.getByTestId('memory-fact')).toHaveCount(2);
  await expect(page.getByTestId('facts-count')).toHaveText('2 current facts');

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId('memory-page').evaluate((el) => el.scrollTo(0, 0));
  await app.screenshot('memory-items');
  await app.switchToDarkTheme();
  await app.screenshot('memory-items-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await ghent.scrollIntoViewIfNeeded();
  await app.screenshot('memory-items-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  await ghent.getByTestId('memory-fact-delete').click();
  const dialog = page.getByTestId('memory-fact-delete-dialog');
  await expect(dialog).toContainText('It is kept as 2 kinds (Where I live, Family): all of them are deleted.');
  await page.getByTestId('memory-fact-delete-dialog-confirm').click();
  await expect(page.getByTestId('fact-notice')).toContainText(/Forgotten\. \d+ messages? marked/);
  await expect(ghent).toHaveCount(0);
  await expect(page.getByTestId('facts-count')).toHaveText('1 current fact');
  expect((await memory.facts()).some((f) => f.content.includes('Ghent'))).toBe(false);
  // One change, one undo, for both kinds.
  await expect(page.getByTestId('undo-toast')).toContainText('Fact deleted.');
});
