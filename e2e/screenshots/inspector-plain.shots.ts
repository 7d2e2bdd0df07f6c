import { expect, test } from '../fixtures';

// Pictures of the inspector in plain words and of /memory, light, dark and on a 390-pixel phone,
// written to e2e/artifacts/ (what they show is asserted by the specs).

test('the inspector: recalled memories in words, and why a memory was not sent', async ({ page, app, chat, inspector, memory }) => {
  await chat.askAboutALearnedFact(memory);
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  await page.request.post('/api/facts', { data: { content: 'I keep bees on the roof.' } });
  const why = inspector.root.getByTestId('why');
  await why.getByTestId('why-toggle').click();
  await why.getByTestId('why-search').fill('bees');
  await why.getByTestId('why-pick').filter({ hasText: 'bees' }).click();
  await expect(why.getByTestId('why-answer')).toBeVisible();
  await inspector.root.getByTestId('recalled').scrollIntoViewIfNeeded();
  await app.screenshot('inspector-plain');
  await why.getByTestId('why-details').getByText('Technical details').click();
  await why.scrollIntoViewIfNeeded();
  await app.screenshot('inspector-why');

  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('inspector-why-dark');
  await inspector.root.getByTestId('recalled').scrollIntoViewIfNeeded();
  await app.screenshot('inspector-plain-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('inspector-toggle').click();
  await expect(page.locator('#inspector-panel')).toBeInViewport();
  await inspector.root.getByTestId('recalled').scrollIntoViewIfNeeded();
  await app.screenshot('inspector-plain-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('/memory: sent with and cited in, sources by their conversation, relative dates', async ({ page, app, chat, memory }) => {
  await chat.askAboutALearnedFact(memory);
  await chat.exchange('And what is my name?');
  await memory.waitToSettle();
  await page.goto('/memory');
  await app.waitForHydration();
  await expect(page.getByTestId('memory-fact-sent').first()).toBeVisible();
  await app.screenshot('memory-usage');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('#episodes').scrollIntoViewIfNeeded();
  await app.screenshot('memory-usage-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/memory');
  await app.waitForHydration();
  await app.screenshot('memory-usage-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
});
