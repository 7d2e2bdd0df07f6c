import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';

// The import page (/import): a JSON file sent, queued at once, its progress followed (react-query
// polls GET /api/import/:id) until the worker is done, then the conversation opened. A second
// import meanwhile is refused; a file that is not JSON is said so before anything is sent.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memlens-import-e2e-'));
test.afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function conversationFile(name: string, turns: number, title?: string): string {
  const messages = Array.from({ length: turns }, (_, i) => [
    { role: 'user', content: `Garden note ${i}: bed ${i} has ${(i % 7) + 2} rows of heirloom carrots and a row of basil.` },
    { role: 'assistant', content: `Noted for bed ${i}.` },
  ]).flat();
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(title ? { title, messages } : messages));
  return file;
}

test('an import is followed to the end on the import page, then opens its conversation', async ({ page, app, chat }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await app.waitForHydration();
  await page.getByTestId('import-link').click();
  await page.waitForURL(/\/import$/);
  await expect(page).toHaveTitle(/Import/);

  // Not JSON: said at once, nothing sent.
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{ "messages": [') });
  await expect(page.getByTestId('import-problem')).toContainText('notes.json is not JSON');
  await expect(page.getByTestId('import-submit')).toBeDisabled();

  await page.getByTestId('import-file').setInputFiles(conversationFile('garden.json', 1500, 'Garden log'));
  await expect(page.getByTestId('import-title')).toHaveValue('Garden log');
  await page.getByTestId('import-submit').click();

  const progress = page.getByTestId('import-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('data-status', /pending|running/);
  await expect(page.getByTestId('import-submit')).toBeDisabled();
  // While it runs, another import of the same user is refused, naming the one in progress.
  const second = await page.request.post('/api/import', { data: { messages: [{ role: 'user', content: 'One more' }] } });
  expect(second.status()).toBe(409);
  expect(((await second.json()) as { error: { code: string } }).error.code).toBe('import_in_progress');
  // The bar moves while the worker stores and remembers it.
  await expect(page.getByTestId('import-step')).toContainText(/Storing messages|Remembering replies/, { timeout: 30_000 });
  const bar = progress.getByRole('progressbar', { name: 'Import progress' });
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 60_000 }).toBeGreaterThan(0);
  await app.screenshot('import-running');

  await expect(progress).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  await expect(bar).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('import-step')).toContainText('Imported 3,000 messages; 1,500 replies remembered.');
  await expect(page.getByTestId('conversation-list')).toContainText('Garden log');
  await app.screenshot('import-done');
  await app.switchToDarkTheme();
  await app.screenshot('import-done-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the sidebar is a drawer: wait until it has slid away.
  await expect(page.getByRole('navigation', { name: 'Conversations' })).not.toBeInViewport();
  await progress.scrollIntoViewIfNeeded();
  await expect(page.getByTestId('import-open')).toBeInViewport();
  await app.screenshot('import-done-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByTestId('import-open').click();
  await page.waitForURL(/\/c\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('conversation-title')).toHaveText('Garden log');
  await expect(chat.assistantMessages.last()).toContainText('Noted for bed 1499.');

  // Back on the page, the import is listed; the next one is accepted.
  await page.goto('/import');
  await app.waitForHydration();
  await expect(page.getByTestId('import-history')).toContainText('Garden log');
  await page.getByTestId('import-file').setInputFiles(conversationFile('short.json', 2));
  await page.getByTestId('import-title').fill('Short one');
  await page.getByTestId('import-submit').click();
  await expect(page.getByTestId('import-progress')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('import-progress')).toContainText('Short one');
});
