import { expect, test } from './fixtures';
import { uniqueEmail } from './pages/auth-page';

// A correction as a member sees it: no copy of the corrected text left in an older reply's record,
// a replay with unchanged memory that says so, nothing private left on screen after signing out,
// and staff's changes named as staff's, in words, with no marker or id. The server runs the
// built-in offline model, which quotes memory and cites it.

const STAFF_CALL = { headers: { 'x-memlens-staff': '1' } };

test("deleting a fact leaves no copy in an older reply's record; a replay with unchanged memory says nothing changed", async ({
  page,
  app,
  chat,
  inspector,
  memory,
}) => {
  test.setTimeout(150_000);
  await chat.newConversation();
  await chat.exchange('Our new puppy is a beagle called Nugget.');
  const fact = await memory.waitForFact('Nugget');
  await chat.exchange('What kind of dog do we have?');
  const quoting = chat.assistantMessages.nth(1);
  await expect(quoting).toContainText('Nugget');
  await chat.exchange('And how old is it?');
  const followUp = chat.assistantMessages.nth(2);

  // Case 4: nothing changed in memory, so the replay shows the same items (citation marks aside).
  await quoting.hover();
  await quoting.getByTestId('inspect').click();
  const section = inspector.root.getByTestId('replay-section');
  await section.getByTestId('replay-section-toggle').click();
  await section.getByTestId('replay-run').click();
  await expect(section.getByTestId('replay-diff')).toBeVisible();
  await app.screenshot('copies-4-replay-unchanged');
  await expect(section.getByTestId('replay-same')).toBeVisible();
  await expect(section.getByTestId('replay-diff')).toHaveAttribute('data-changed', '0');

  // Case 2: the fact deleted; the follow-up's record (its rewritten query copied the name) keeps no copy.
  expect((await page.request.delete(`/api/facts/${fact.id}`)).ok()).toBe(true);
  await page.reload();
  await app.waitForHydration();
  await followUp.hover();
  await followUp.getByTestId('inspect').click();
  await expect(inspector.root.getByTestId('record-redacted')).toBeVisible();
  await app.screenshot('copies-2-record-redacted');
  expect(await inspector.root.innerText()).not.toContain('Nugget');
  const record = await (await page.request.get(`/api/messages/${await followUp.getAttribute('data-message-id')}/context`)).text();
  expect(record).not.toContain('Nugget');
});

test('signing out leaves no conversation, message or inspector of the member on screen', async ({ page, app, chat, member: _ }) => {
  await chat.newConversation();
  await chat.exchange('My locker at the swimming pool is number 418.');
  const reply = chat.assistantMessages.first();
  await reply.hover();
  await reply.getByTestId('inspect').click();
  await expect(page.getByTestId('inspector')).toBeVisible();
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'guest');
  await app.screenshot('copies-5-signed-out');
  await expect(page.getByTestId('message')).toHaveCount(0);
  await expect(page.getByTestId('inspector')).toHaveCount(0);
  expect(await page.locator('body').innerText()).not.toContain('418');
});

test("a staff member's correction reads as staff's in the member's chat, with the reason, and no marker", async ({
  page,
  app,
  auth,
  chat,
  memory,
  staffConsole,
}) => {
  test.setTimeout(180_000);
  const conversationId = await chat.newConversation();
  await chat.exchange('I teach chemistry at a secondary school.');
  const fact = await memory.waitForFact('chemistry');
  const email = uniqueEmail('teacher');
  await auth.signUp(email, 'teacher password 1');
  await page.waitForURL(`**/c/${conversationId}`);
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'guest');

  await staffConsole.signIn();
  const edited = await page.request.patch(`/api/staff/facts/${fact.id}`, {
    ...STAFF_CALL,
    data: { content: 'I teach physics at a secondary school', reason: 'the member asked support to fix the subject' },
  });
  expect(edited.status()).toBe(200);
  await page.context().clearCookies(); // staff leave; the member comes back in this browser

  await auth.submitPastLimit('sign-in', email, 'teacher password 1', (url) => url.pathname !== '/login', `/c/${conversationId}`);
  await page.goto(`/c/${conversationId}`);
  await app.waitForHydration();
  const corrections = page.getByTestId('message-corrections');
  await expect(corrections).toBeVisible();
  await app.screenshot('copies-7-staff-change');
  await expect(corrections).toContainText('Changed by staff (“the member asked support to fix the subject”) in memory');
  await expect(corrections).toContainText('I teach physics at a secondary school');
  const shown = await page.locator('main').innerText();
  expect(shown).not.toMatch(/\[corrected|\[forgotten|something you corrected|[0-9a-f]{8}-[0-9a-f]{4}-/u);
});
