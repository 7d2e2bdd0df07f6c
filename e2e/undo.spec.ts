import { expect, test } from './fixtures';

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
