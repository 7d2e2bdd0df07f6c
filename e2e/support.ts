import { expect, test, type Locator, type Page } from '@playwright/test';

// Shared by the e2e specs. Every test gets a fresh browser context, hence a fresh guest session with
// no conversations; the server runs the built-in offline model with 60 ms between words (~2.5 s per reply).

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const messages = (page: Page) => page.getByTestId('message');
export const userMessages = (page: Page) => page.locator('[data-testid="message"][data-role="user"]');
export const assistantMessages = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]');
export const textIn = (message: Locator) => message.getByTestId('message-text');

/** Uncaught exceptions and React hydration errors fail the test that caused them. */
export function failOnPageErrors() {
  let pageErrors: string[] = [];
  test.beforeEach(({ context }) => {
    pageErrors = [];
    context.on('weberror', (error) => pageErrors.push(error.error().message));
    context.on('console', (message) => {
      if (message.type() === 'error' && /hydrat/i.test(message.text())) pageErrors.push(message.text());
    });
  });
  test.afterEach(() => {
    expect(pageErrors, 'errors in the page').toEqual([]);
  });
}

export async function waitForHydration(page: Page) {
  await expect(page.locator('body')).toHaveAttribute('data-hydrated', 'true');
}

/** Opens the app and starts a new conversation from the sidebar; returns its id. */
export async function newConversation(page: Page): Promise<string> {
  await page.goto('/');
  await waitForHydration(page);
  await page.getByTestId('new-conversation').click();
  await page.waitForURL(/\/c\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('composer')).toBeVisible();
  return page.url().split('/c/')[1];
}

export async function send(page: Page, text: string) {
  await page.getByTestId('composer').fill(text);
  await page.getByTestId('send').click();
}

/** Sends a message and waits for its reply to complete. */
export async function exchange(page: Page, text: string) {
  const before = await assistantMessages(page).count();
  await send(page, text);
  await expect(assistantMessages(page)).toHaveCount(before + 1);
  await expect(assistantMessages(page).last()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
}

export type FactRow = { id: string; content: string; status: string };

export async function facts(page: Page, status?: string): Promise<FactRow[]> {
  const response = await page.request.get(`/api/facts${status ? `?status=${status}` : ''}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { facts: FactRow[] }).facts;
}

/** Fact extraction runs as post-turn work right after a reply: wait for the fact to exist. */
export async function waitForFact(page: Page, needle: string): Promise<FactRow> {
  await expect
    .poll(async () => (await facts(page, 'active')).some((f) => f.content.includes(needle)), { timeout: 15_000, intervals: [250, 500, 1_000] })
    .toBe(true);
  return (await facts(page, 'active')).find((f) => f.content.includes(needle))!;
}
