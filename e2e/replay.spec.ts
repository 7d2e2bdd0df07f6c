import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { artifactPath } from './pages/app-page';

// Replay in the inspector: an older reply's context assembled again with today's memory (never
// generated), and what changed against what was sent. Every test gets a fresh guest; the server runs
// the built-in offline model with 60 ms between words (~2.5 s per reply).

/** Scrolls the inspector's own scroll area (not the page) so the element starts at its top. */
async function scrollPanelTo(page: Page, testId: string) {
  await page.getByTestId('turn-view').evaluate((panel, id) => {
    const target = panel.querySelector(`[data-testid="${id}"]`)!;
    panel.scrollTop += target.getBoundingClientRect().top - panel.getBoundingClientRect().top;
  }, testId);
}

test("replaying an older reply with today's memory shows what was added, removed and re-ranked, and the tokens per block", async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  test.setTimeout(120_000);
  await chat.newConversation();

  // A reply that used two facts, then a fact learned after it and one of the two deleted.
  await chat.exchange('My cat is called Miso and I am allergic to peanuts.');
  await memory.waitForFact('Miso');
  await memory.waitForFact('peanuts');
  await chat.exchange('What is my cat called?');
  const older = chat.assistantMessages.nth(1);
  const olderId = (await older.getAttribute('data-message-id'))!;
  await chat.exchange('I adopted a second cat, a tabby called Pixel.');
  const pixel = await memory.waitForFact('Pixel');
  const peanuts = (await memory.facts('active')).find((f) => f.content.includes('peanuts'))!;
  expect((await page.request.delete(`/api/facts/${peanuts.id}`)).ok()).toBe(true);

  // The older reply in the inspector (after a reload: its record as the server now holds it).
  await page.reload();
  await app.waitForHydration();
  await older.hover();
  await older.getByTestId('inspect').click();
  await expect(inspector.root).toHaveAttribute('data-message-id', olderId);

  // The section is collapsed until asked for.
  const section = inspector.root.getByTestId('replay-section');
  await expect(section).toHaveAttribute('data-open', 'false');
  await section.getByTestId('replay-section-toggle').click();
  await expect(section).toHaveAttribute('data-open', 'true');
  await section.getByTestId('replay-run').click();

  const diff = section.getByTestId('replay-diff');
  await expect(diff).toBeVisible();
  const added = diff.locator(`[data-testid="replay-added"][data-key="fact:${pixel.id}"]`);
  await expect(added).toContainText('Pixel');
  await expect(added).toContainText('learned after this turn');
  const removed = diff.locator(`[data-testid="replay-removed"][data-key="fact:${peanuts.id}"]`);
  await expect(removed).toContainText('the fact was deleted');
  await expect(removed).toContainText('[redacted]');
  // The deleted fact's words appear nowhere: neither in the replay nor in the record it is compared with.
  expect((await section.innerText()).toLowerCase()).not.toContain('peanut');
  // Miso, the first fact then, is ranked below the new cat fact now, or kept in place.
  const reranked = diff.getByTestId('replay-reranked');
  for (const row of await reranked.all()) await expect(row.getByTestId('replay-rank')).toHaveText(/#\d+ → #\d+/);
  // Tokens per block, before → after.
  const factsRow = diff.locator('[data-testid="replay-block"][data-block="facts"]');
  await expect(factsRow).toBeVisible();
  expect(Number(await factsRow.getAttribute('data-after'))).toBeGreaterThan(0);
  await expect(diff.getByTestId('replay-query')).toContainText('What is my cat called?');
  await expect(section.getByTestId('replay-options')).toContainText("with today's memory");

  // Screenshots: light, dark, phone.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await scrollPanelTo(page, 'replay-section');
  await expect(diff.getByTestId('replay-added').first()).toBeInViewport();
  await app.screenshot('replay');
  // The whole section, form to token table, as one picture (a tall window, so nothing scrolls).
  await page.setViewportSize({ width: 1280, height: 2000 });
  await scrollPanelTo(page, 'replay-section');
  await expect(diff.getByTestId('replay-tokens')).toBeInViewport();
  await page.mouse.move(0, 0);
  await page.locator('#inspector-panel').screenshot({ path: artifactPath('replay-section.png') });
  await page.setViewportSize({ width: 1280, height: 1000 });
  await scrollPanelTo(page, 'replay-section');
  await app.switchToDarkTheme();
  await app.screenshot('replay-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('inspector-toggle').click();
  await expect(page.locator('#inspector-panel')).toBeInViewport();
  await expect(diff).toBeVisible();
  await scrollPanelTo(page, 'replay-diff');
  await expect(diff.getByTestId('replay-added').first()).toBeInViewport();
  await app.screenshot('replay-phone');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Another window: two messages only; the rest of the window shows as removed, and fewer history tokens.
  const historyBefore = Number(await diff.locator('[data-testid="replay-block"][data-block="history"]').getAttribute('data-before'));
  await section.getByTestId('replay-window').fill('1');
  await section.getByTestId('replay-run').click();
  await expect(section.getByTestId('replay-options')).toContainText('changed: window');
  await expect(diff.locator('[data-testid="replay-block"][data-block="history"]')).toHaveAttribute('data-after', /\d/);
  const historyAfter = Number(await diff.locator('[data-testid="replay-block"][data-block="history"]').getAttribute('data-after'));
  expect(historyAfter).toBeLessThan(historyBefore);
  await expect(diff.locator('[data-testid="replay-removed"][data-key^="message:"]').first()).toContainText('not in the recent window now');

  // A budget too small for the question alone: the error says so.
  await section.getByTestId('replay-budget').fill('5');
  await section.getByTestId('replay-run').click();
  await expect(section.getByTestId('replay-error')).toContainText('budget: the system prompt and the question alone need');
});
