import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { uniqueEmail } from './pages/auth-page';
import type { ChatPage } from './pages/chat-page';
import type { MemoryApi } from './pages/memory-api';
import { STAFF_EMAIL } from './pages/staff-console';

// The staff console as staff use it: reached from a plain "Staff console" link; a turn record opened
// once is one audit entry; replay as stored; the audit filter keeps an email and refuses an unknown
// one with no list under it; people named by email; jobs with their duration and conversation, a
// page at a time; the user page fits a phone. The server runs the built-in offline model.

const STAFF_CALL = { headers: { 'x-memlens-staff': '1' } };

type Entry = { objectType: string; action: string };

async function readsAbout(page: Page, userId: string): Promise<Entry[]> {
  const response = await page.request.get(`/api/staff/audit?targetUserId=${userId}&action=read`, STAFF_CALL);
  return (await response.json()).entries as Entry[];
}

/**
 * The user id of this browser's guest, who then leaves the browser (its cookie cleared, its data kept):
 * staff signing in here must not take the guest's data into their own account.
 */
async function leaveGuest(page: Page): Promise<string> {
  const id = (await (await page.request.get('/api/me')).json()).user.id as string;
  await page.context().clearCookies();
  return id;
}

/** A guest's conversation with a learned fact and two replies, the second citing it. */
async function conversationWithReplies(chat: ChatPage, memory: MemoryApi) {
  const { conversationId } = await chat.askAboutALearnedFact(memory);
  const replyIds = await chat.assistantMessages.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-message-id')!));
  return { conversationId, replyIds };
}

test('staff reach the console from a Staff console link; opening a turn record writes one audit entry; replay shows the context as stored', async ({
  page,
  app,
  chat,
  memory,
  staffConsole,
}) => {
  test.setTimeout(150_000);
  const { conversationId, replyIds } = await conversationWithReplies(chat, memory);
  const userId = await leaveGuest(page);

  await staffConsole.signIn();
  await page.goto('/');
  await app.waitForHydration();
  const link = page.getByTestId('staff-console-link');
  await expect(link).toHaveText('Staff console');
  await link.click();
  await page.waitForURL(/\/staff$/);

  await page.goto(`/staff/conversations/${conversationId}`);
  await expect(page.getByTestId('message')).toHaveCount(4);
  await page.waitForLoadState('networkidle');
  const before = await readsAbout(page, userId);
  expect(before.filter((e) => e.objectType === 'conversation')).toHaveLength(1);

  // The reply that cited the fact: its record, the other reply's record and its source links all load.
  const reply = page.locator(`[data-testid="message"][data-message-id="${replyIds[1]}"]`);
  await reply.getByTestId('open-turn').click();
  const turn = page.getByTestId('inspector');
  await expect(turn.locator('[data-testid="recalled-item"][data-kind="fact"]').filter({ hasText: 'Lisbon' })).toHaveCount(1);
  await page.waitForLoadState('networkidle');
  const after = await readsAbout(page, userId);
  expect(after.length - before.length).toBe(1);
  expect(after[0].objectType).toBe('turn_record');

  // Replay as stored: the context exactly as it was sent, so nothing differs.
  const replay = turn.getByTestId('replay-section');
  await replay.getByTestId('replay-section-toggle').click();
  await replay.getByTestId('replay-stored').click();
  await expect(replay.getByTestId('replay-same')).toBeVisible();
  await expect(replay.getByTestId('replay-query')).toContainText('Where do I live?');
});

test('the audit filter keeps a typed email, names people by email, and an unknown email shows why with no list', async ({
  page,
  auth,
  chat,
  staffConsole,
}) => {
  test.setTimeout(120_000);
  await chat.newConversation();
  await chat.exchange('I collect old railway timetables.');
  const userEmail = uniqueEmail('timetables');
  await auth.submitPastLimit('sign-up', userEmail, 'user password 1', (url) => url.pathname.startsWith('/c/'));
  const userId = (await (await page.request.get('/api/me')).json()).user.id as string;
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'guest');

  await staffConsole.signIn();
  await page.goto(`/staff/users/${userId}`);
  await expect(page.getByTestId('staff-user-title')).toHaveText(userEmail);

  await page.goto('/staff/audit');
  await staffConsole.waitForHydration();
  await page.getByTestId('audit-filter-target').fill(userEmail);
  await page.getByTestId('audit-apply').click();
  await page.waitForURL((url) => url.searchParams.get('targetUserId') === userEmail);
  await expect(page.getByTestId('audit-filter-target')).toHaveValue(userEmail);
  const read = page.locator('[data-testid="audit-entry"][data-action="read"][data-object-type="user"]').first();
  await expect(read.getByTestId('audit-target')).toHaveText(userEmail);
  await expect(read.getByTestId('audit-actor')).toHaveText(`${STAFF_EMAIL} (you)`);

  const unknown = 'no-such-person@nowhere.test';
  await page.getByTestId('audit-filter-target').fill(unknown);
  await page.getByTestId('audit-apply').click();
  await expect(page.getByTestId('audit-query-error')).toContainText(`no user has the email ${unknown}`);
  await expect(page.getByTestId('audit-filter-target')).toHaveValue(unknown);
  await expect(page.getByTestId('audit-entry')).toHaveCount(0);
});

test('jobs show how long each took and its conversation, and page back past the newest 100', async ({ page, memory, staffConsole }) => {
  test.setTimeout(150_000);
  // 40 exchanges: up to three post-turn jobs each, more than one page of 100.
  const messages = Array.from({ length: 40 }, (_, i) => [
    { role: 'user', content: `Which bus goes to the harbour on day ${i + 1}?` },
    { role: 'assistant', content: `The number ${i + 10} bus, every half hour.` },
  ]).flat();
  const conversationId = await memory.importConversation({ title: 'Harbour buses', messages });
  await memory.waitToSettle();
  const userId = await leaveGuest(page);

  await staffConsole.signIn();
  const counts = (await (await page.request.get(`/api/staff/jobs?userId=${userId}`, STAFF_CALL)).json()).counts as Record<string, number>;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  expect(total).toBeGreaterThan(100);
  expect(total).toBeLessThanOrEqual(200);
  await page.goto(`/staff/jobs?userId=${userId}`);
  const jobs = page.getByTestId('job');
  await expect(jobs).toHaveCount(100);
  const first = jobs.first();
  await expect(first.getByTestId('job-duration')).toHaveText(/^\d+(\.\d)? s$|min/);
  await expect(first.getByTestId('job-conversation')).toHaveText('Harbour buses');
  await expect(first.getByTestId('job-conversation')).toHaveAttribute('href', `/staff/conversations/${conversationId}`);
  await page.getByTestId('jobs-more').click();
  await expect(jobs).toHaveCount(total);
  await expect(page.getByTestId('jobs-end')).toBeVisible();
  const ids = await jobs.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-job-id')));
  expect(new Set(ids).size).toBe(total);
  await first.getByTestId('job-conversation').click();
  await page.waitForURL(`**/staff/conversations/${conversationId}`);
  await expect(page.getByTestId('staff-conversation-title')).toHaveText('Harbour buses');
});

test('the staff user page fits a 390-pixel phone', async ({ page, chat, memory, staffConsole }) => {
  test.setTimeout(120_000);
  await memory.importConversation({
    title: 'A conversation whose title is long enough to run well past the width of any phone held upright',
    messages: [
      { role: 'user', content: 'My name is Wilhelmina and I work as a lighthouse keeper on the northern coast.' },
      { role: 'assistant', content: 'Noted.' },
    ],
  });
  await chat.newConversation();
  await chat.exchange('我住在杭州。');
  await memory.waitForFact('杭州');
  const userId = await leaveGuest(page);

  await staffConsole.signIn();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/staff/users/${userId}`);
  await expect(page.getByTestId('staff-fact').first()).toBeVisible();
  await expect(page.getByTestId('user-conversation')).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
