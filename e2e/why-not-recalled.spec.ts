import { expect, test } from './fixtures';
import { uniqueEmail } from './pages/auth-page';

// Asking the inspector why a memory was or was not in a reply, and staff changes shown as staff's
// to the user. The server runs the built-in offline model.

const STAFF_CALL = { headers: { 'x-memlens-staff': '1' } };

test('the inspector answers why a memory was sent, or not, in plain words with the numbers one click away', async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  test.setTimeout(120_000);
  await chat.newConversation();
  await chat.exchange('My dog is called Pepper and I live in Porto.');
  await memory.waitForFact('Pepper');
  await chat.exchange('What is my dog called?');
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');

  // A fact added after the reply: memlens learned it later.
  const added = await page.request.post('/api/facts', { data: { content: 'I collect old maps of Lisbon.' } });
  expect(added.status()).toBe(201);

  const why = inspector.root.getByTestId('why');
  await why.getByTestId('why-toggle').click();
  await why.getByTestId('why-search').fill('maps');
  const pick = why.getByTestId('why-pick').filter({ hasText: 'old maps of Lisbon' });
  await expect(pick).toHaveCount(1);
  await pick.click();
  await expect(why.getByTestId('why-answer')).toHaveAttribute('data-verdict', 'learned_later');
  await expect(why.getByTestId('why-sentence')).toContainText(/memlens learned it .* after this reply/u);
  // The numbers are behind "Technical details", closed at first.
  const details = why.getByTestId('why-details');
  await expect(details.getByText('Searched with')).toBeHidden();
  await details.getByText('Technical details').click();
  await expect(details.getByText('Searched with')).toBeVisible();

  // The fact the reply was given: sent.
  await why.getByTestId('why-search').fill('Pepper');
  await why.getByTestId('why-pick').filter({ hasText: 'Pepper' }).first().click();
  await expect(why.getByTestId('why-answer')).toHaveAttribute('data-verdict', 'sent');
  await expect(why.getByTestId('why-sentence')).toContainText('It was sent with this reply');
  await app.screenshot('inspector-why');
});

test("a staff edit reads as staff's, with the reason, in the user's fact history", async ({ page, auth, chat, memory, staffConsole }) => {
  test.setTimeout(180_000);
  await chat.newConversation();
  await chat.exchange('I work as a carpenter.');
  const fact = await memory.waitForFact('carpenter');
  const email = uniqueEmail('history');
  await auth.signUp(email, 'user password 1');
  await page.waitForURL((url) => url.pathname !== '/signup');
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'guest');

  await staffConsole.signIn();
  const edited = await page.request.patch(`/api/staff/facts/${fact.id}`, {
    ...STAFF_CALL,
    data: { content: 'I work as a furniture restorer.', reason: 'the user wrote to support' },
  });
  expect(edited.status()).toBe(200);
  await page.context().clearCookies();

  await auth.submit('sign-in', email, 'user password 1');
  // Home, which opens the newest conversation when there is one.
  await page.waitForURL((url) => url.pathname !== '/login');
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'member');
  await page.goto('/memory');
  const card = page.getByTestId('memory-fact').filter({ hasText: 'furniture restorer' });
  await card.getByTestId('memory-fact-history-toggle').click();
  const edit = card.locator('[data-testid="memory-fact-event"][data-event="EDIT"]');
  await expect(edit).toContainText('by staff (“the user wrote to support”)');
  await expect(card.getByTestId('memory-fact-history')).not.toContainText('by you');
});
