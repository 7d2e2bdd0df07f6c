import fs from 'node:fs';
import type { Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { uniqueEmail } from './pages/auth-page';
import { STAFF_EMAIL } from './pages/staff-console';

// The staff console (/staff): signed-out visitors get 401 and users 403, on the pages and the API;
// staff (an email listed in STAFF_EMAILS, see playwright.config.ts, invited at start-up: the mailed link sets its password) find a user, open a conversation
// and a reply's turn record, edit a fact with a reason, find that edit in the audit log and export
// it as JSON Lines. The server runs the built-in offline model with 60 ms between words.

/** A script's call to a staff route sends the console's header (lib/csrf.ts); a browser's page on another origin cannot. */
const STAFF_CALL = { headers: { 'x-memlens-staff': '1' } };

test('a signed-out visitor gets 401 from the console and its API, with a way to sign in', async ({ page, app }) => {
  for (const url of ['/staff', '/staff/audit', '/staff/jobs']) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(401);
    await expect(page.getByTestId('unauthorized-page')).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Sign in to continue' })).toBeVisible();
  await expect(page.getByTestId('sign-in-link')).toHaveAttribute('href', '/login?next=%2Fstaff%2Fjobs');
  await app.screenshot('staff-unauthorized');
  for (const url of ['/api/staff/users?q=a', '/api/staff/audit', '/api/staff/jobs']) {
    const response = await page.request.get(url, STAFF_CALL);
    expect(response.status(), url).toBe(401);
    expect((await response.json()).error.code).toBe('not_signed_in');
  }
});

test("a staff read another page makes the staff member's browser send (an <img> on another port) is refused and not audited", async ({
  page,
  baseURL,
  staffConsole,
}) => {
  await staffConsole.signIn();
  const probe = `img-probe-${Date.now()}`;
  const search = (q: string) => `${baseURL}/api/staff/users?q=${q}`;
  // The browser blocks a JSON answer to an <img> (ORB) and reports the request failed: wait for either end.
  const ended = (url: string) =>
    new Promise<Request>((resolve) => {
      const done = (request: Request) => request.url() === url && resolve(request);
      page.on('requestfinished', done);
      page.on('requestfailed', done);
    });
  // The control: the same <img> on the console's own page is a same-origin read, answered and audited.
  const own = ended(search(`own-${probe}`));
  await page.evaluate((src) => void Object.assign(new Image(), { src }), search(`own-${probe}`));
  await own;
  // The attack: the page on another port of the same host, whose <img> carries the staff member's cookies.
  const elsewhere = new URL(baseURL!);
  elsewhere.port = String(Number(elsewhere.port) + 1);
  await page.route(`${elsewhere.origin}/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: `<img src="${search(probe)}" alt="">` }),
  );
  const attack = ended(search(probe));
  await page.goto(`${elsewhere.origin}/cat-pictures`);
  await attack;
  const searches = (await (await page.request.get('/api/staff/audit?objectType=user_search', STAFF_CALL)).json()).entries as Array<{
    after: { q?: string } | null;
  }>;
  expect(searches.map((entry) => entry.after?.q)).toContain(`own-${probe}`);
  expect(searches.map((entry) => entry.after?.q)).not.toContain(probe);
});

test('a user who is not staff gets the 403 page at /staff, and 403 from the staff API', async ({ page, app, member: _signedUp }) => {
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'member');
  // No way into the console is offered to a user.
  await expect(page.getByTestId('staff-console-link')).toHaveCount(0);

  for (const url of ['/staff', '/staff/audit']) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(403);
  }
  await expect(page.getByTestId('forbidden-page')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This page is for memlens staff' })).toBeVisible();
  await app.screenshot('staff-forbidden');
  for (const url of ['/api/staff/users?q=a', '/api/staff/audit', '/api/staff/jobs']) {
    const response = await page.request.get(url, STAFF_CALL);
    expect(response.status(), url).toBe(403);
  }
});

test('staff find a user, open a conversation and a turn record, edit a fact with a reason, and find it in the audit log and its export', async ({
  page,
  app,
  auth,
  chat,
  memory,
  staffConsole,
}) => {
  test.setTimeout(180_000);

  // A user who chatted and told memlens something about themselves.
  const conversationId = await chat.newConversation();
  await chat.exchange('My cat is called Miso.');
  await memory.waitForFact('Miso');
  await chat.exchange('What is my cat called?');
  const replyId = (await chat.assistantMessages.last().getAttribute('data-message-id'))!;
  const userEmail = uniqueEmail('miso');
  await auth.signUp(userEmail, 'user password 1');
  await page.waitForURL(`**/c/${conversationId}`);
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'guest');

  // Staff (invited at start-up: their email is in STAFF_EMAILS) set their password through the invite and land in the console.
  await staffConsole.signIn();
  await expect(page.getByTestId('staff-nav-users')).toHaveAttribute('aria-current', 'page');

  // Users: find them by email.
  await page.getByTestId('user-search').fill(userEmail);
  await page.getByTestId('user-search').press('Enter');
  await page.waitForURL(/\/staff\?q=/);
  const rows = page.getByTestId('user-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(userEmail);
  await expect(rows.first()).toContainText('member');
  await app.screenshot('staff-users');

  // A search that finds nobody says so.
  await page.getByTestId('user-search').fill('nobody-at-all@nowhere.test');
  await page.getByTestId('user-search-submit').click();
  await expect(page.getByTestId('users-empty')).toContainText('No user matches');
  await page.goBack();
  await expect(rows).toHaveCount(1);

  // The user's page: account, conversations, facts.
  await rows.first().click();
  await page.waitForURL(/\/staff\/users\/[0-9a-f-]{36}$/);
  const userId = page.url().split('/').at(-1)!;
  await expect(page.getByTestId('staff-user-title')).toHaveText(userEmail);
  await expect(page.getByTestId('user-id')).toHaveText(userId);
  const factWith = (text: string) =>
    page.getByTestId('staff-fact').filter({ has: page.getByTestId('staff-fact-content').filter({ hasText: text }) });
  const fact = factWith('Miso');
  await expect(fact).toHaveCount(1);
  await expect(page.getByTestId('user-conversation')).toHaveCount(1);
  await app.screenshot('staff-user');

  // A conversation, read-only, and a reply's turn record (the inspector's view of it).
  await page.getByTestId('user-conversation').first().click();
  await page.waitForURL(`**/staff/conversations/${conversationId}`);
  await expect(page.getByTestId('message')).toHaveCount(4);
  await expect(page.getByTestId('conversation-owner')).toContainText(userEmail);
  await expect(page.getByTestId('staff-conversation').getByRole('textbox')).toHaveCount(0);
  const reply = page.locator(`[data-testid="message"][data-message-id="${replyId}"]`);
  await reply.getByTestId('open-turn').click();
  await expect(page).toHaveURL(new RegExp(`turn=${replyId}`));
  const turn = page.getByTestId('inspector');
  await expect(turn).toHaveAttribute('data-message-id', replyId);
  await expect(turn.getByTestId('retrieval-question')).toHaveText('What is my cat called?');
  await expect(turn.locator('[data-testid="recalled-item"][data-kind="fact"]').filter({ hasText: 'Miso' })).toHaveCount(1);
  await expect(turn.getByTestId('budget-total')).toBeVisible();
  await app.screenshot('staff-turn');
  // Replay through the staff routes: the turn assembled again with today's memory, nothing changed.
  const replay = turn.getByTestId('replay-section');
  await replay.getByTestId('replay-section-toggle').click();
  await replay.getByTestId('replay-run').click();
  await expect(replay.getByTestId('replay-diff')).toBeVisible();
  await expect(replay.getByTestId('replay-query')).toContainText('What is my cat called?');
  await replay.scrollIntoViewIfNeeded();
  await app.screenshot('staff-replay');

  // The turn record opens straight from its address, and Escape closes it.
  await page.reload();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-message-id', replyId);
  await app.waitForHydration();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('inspector')).toHaveCount(0);

  // On a phone the turn record covers the screen, with a way back.
  await page.setViewportSize({ width: 390, height: 844 });
  await app.screenshot('staff-conversation-phone');
  await reply.getByTestId('open-turn').click();
  await expect(page.getByTestId('close-turn')).toBeInViewport();
  await expect(page.getByTestId('inspector').getByTestId('retrieval-question')).toBeVisible();
  await app.screenshot('staff-turn-phone');
  await page.getByTestId('close-turn').click();
  await expect(page.getByTestId('inspector')).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Edit the fact: the dialog asks for a reason first.
  await page.getByTestId('conversation-owner').click();
  await page.waitForURL(`**/staff/users/${userId}`);
  await fact.getByTestId('edit-fact').click();
  const dialog = page.getByTestId('edit-fact-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('edit-fact-dialog-content')).toBeFocused();
  await dialog.getByTestId('edit-fact-dialog-content').fill('My cat is called Mochi.');
  await dialog.getByTestId('edit-fact-dialog-confirm').click();
  await expect(dialog.getByTestId('edit-fact-dialog-error')).toContainText('Say why');
  const reason = 'user asked by email (ticket 42)';
  await dialog.getByTestId('edit-fact-dialog-reason').fill(reason);
  await dialog.getByTestId('edit-fact-dialog-reason').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('fact-change-done')).toContainText('Fact updated');
  await expect(factWith('Mochi')).toHaveCount(1);
  await expect(factWith('Miso')).toHaveCount(0);

  // Jobs: the post-turn work of the user's replies; none failed.
  await page.getByTestId('user-jobs-link').click();
  await page.waitForURL(/\/staff\/jobs\?userId=/);
  await expect(page.getByTestId('job').first()).toBeVisible();
  await expect(page.getByTestId('job-user-filter')).toBeVisible();
  await app.screenshot('staff-jobs');
  await page.getByTestId('job-filter-failed').click();
  await expect(page.getByTestId('jobs-empty')).toContainText('No failed jobs');

  // A failure as the console shows it: one of the user's jobs answered as failed (the list only is
  // faked); Retry runs the real job again and it succeeds.
  const jobs = (await (await page.request.get(`/api/staff/jobs?userId=${userId}`, STAFF_CALL)).json()).jobs as Array<
    Record<string, unknown>
  >;
  const failing = {
    ...jobs.find((job) => job.kind === 'index_episode'),
    status: 'failed',
    attempts: 5,
    lastError: 'embedder timed out after 30000 ms',
  };
  await page.route('**/api/staff/jobs?status=failed*', (route) => route.fulfill({ json: { jobs: [failing] } }), { times: 1 });
  await page.reload();
  const failedJob = page.getByTestId('job');
  await expect(failedJob).toHaveCount(1);
  await expect(failedJob.getByTestId('job-error')).toHaveText('embedder timed out after 30000 ms');
  await app.screenshot('staff-jobs-failed');
  await failedJob.getByTestId('retry-job').click();
  await expect(page.getByTestId('retry-result')).toContainText('the job is done');
  await expect(page.getByTestId('jobs-empty')).toBeVisible();

  // The audit log: filter by the user's email and by facts; the edit is there with its reason.
  await page.getByTestId('staff-nav-audit-log').click();
  await page.waitForURL(/\/staff\/audit$/);
  await expect(page.getByTestId('audit-entry').first()).toBeVisible();
  await page.getByTestId('audit-filter-target').fill(userEmail);
  await page.getByTestId('audit-filter-object').selectOption('fact');
  await page.getByTestId('audit-apply').click();
  // The filter keeps the email as typed.
  await page.waitForURL((url) => url.searchParams.get('targetUserId') === userEmail && url.searchParams.get('objectType') === 'fact');
  await expect(page.getByTestId('audit-filter-target')).toHaveValue(userEmail);
  const edit = page.locator('[data-testid="audit-entry"][data-action="edit"][data-object-type="fact"]');
  await expect(edit).toHaveCount(1);
  await expect(edit.getByTestId('audit-reason')).toContainText(reason);
  await expect(edit.getByTestId('audit-actor')).toHaveText(`${STAFF_EMAIL} (you)`);
  await expect(edit.getByTestId('audit-target')).toHaveText(userEmail);
  await edit.getByTestId('audit-details-toggle').click();
  await expect(edit.getByTestId('audit-before')).toContainText('Miso');
  await expect(edit.getByTestId('audit-after')).toContainText('Mochi');
  await app.screenshot('staff-audit');

  // Every read of the user's data was recorded too.
  await page.getByTestId('audit-filter-object').selectOption('turn_record');
  await page.getByTestId('audit-filter-action').selectOption('read');
  await page.getByTestId('audit-apply').click();
  await page.waitForURL(/objectType=turn_record/);
  await expect(page.locator('[data-testid="audit-entry"][data-action="read"]').first()).toBeVisible();
  await page.getByTestId('audit-filter-object').selectOption('fact');
  await page.getByTestId('audit-filter-action').selectOption('');
  await page.getByTestId('audit-apply').click();
  await expect(edit).toHaveCount(1);

  // Export as JSON Lines: what the filters match, one entry per line.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
  expect(download.suggestedFilename()).toBe('memlens-audit.jsonl');
  const lines = fs
    .readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.every((entry) => entry.targetUserId === userId && entry.objectType === 'fact')).toBe(true);
  expect(lines.find((entry) => entry.action === 'edit')).toMatchObject({
    actorRole: 'staff',
    reason,
    before: { content: expect.stringContaining('Miso') },
  });

  // Light and dark, wide and phone.
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.screenshot('staff-audit-dark');
  await page.goto(`/staff/users/${userId}`);
  await expect(page.getByTestId('staff-fact').first()).toBeVisible();
  await app.screenshot('staff-user-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Delete the fact: Escape backs out of the dialog; confirming needs a reason too.
  await factWith('Mochi').getByTestId('delete-fact').click();
  const deleteDialog = page.getByTestId('delete-fact-dialog');
  await expect(deleteDialog.getByTestId('delete-fact-dialog-reason')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(deleteDialog).toBeHidden();
  await expect(factWith('Mochi')).toHaveCount(1);
  await factWith('Mochi').getByTestId('delete-fact').click();
  await deleteDialog.getByTestId('delete-fact-dialog-reason').fill('user asked to forget their cat');
  await deleteDialog.getByTestId('delete-fact-dialog-confirm').click();
  await expect(deleteDialog).toBeHidden();
  await expect(page.getByTestId('fact-change-done')).toContainText('Fact deleted');
  await expect(page.getByTestId('facts-empty')).toBeVisible();
  const deletions = await (
    await page.request.get(`/api/staff/audit?targetUserId=${userId}&objectType=fact&action=delete`, STAFF_CALL)
  ).json();
  expect(deletions.entries[0]).toMatchObject({ actorRole: 'staff', reason: 'user asked to forget their cat' });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/staff?q=${encodeURIComponent(userEmail)}`);
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await app.screenshot('staff-users-phone');
  await page.goto(`/staff/audit?targetUserId=${userId}`);
  await expect(page.getByTestId('audit-entry').first()).toBeVisible();
  await app.screenshot('staff-audit-phone');
});
