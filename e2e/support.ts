import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { MAILBOX_FILE } from './mailbox-config';

// Shared by the e2e specs. Every test gets a fresh browser context with no session: it becomes a
// guest with its first conversation; the server runs the built-in offline model with 60 ms between words (~2.5 s per reply).

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const messages = (page: Page) => page.getByTestId('message');
export const userMessages = (page: Page) => page.locator('[data-testid="message"][data-role="user"]');
export const assistantMessages = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]');
export const textIn = (message: Locator) => message.getByTestId('message-text');
export const inspectorOf = (page: Page) => page.getByTestId('inspector');

/** Uncaught exceptions, React hydration errors and CSP violations fail the test that caused them. */
export function failOnPageErrors() {
  let pageErrors: string[] = [];
  test.beforeEach(async ({ context }) => {
    // A Content-Security-Policy violation anywhere in the suite fails the test that caused it.
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
      });
    });
    pageErrors = [];
    context.on('weberror', (error) => pageErrors.push(error.error().message));
    context.on('console', (message) => {
      const text = message.text();
      const cspViolation = /CSP violation/u.test(text) && !text.includes('frame-ancestors'); // e2e/security.spec.ts frames the app on purpose
      if (message.type() === 'error' && (/hydrat/i.test(text) || cspViolation)) pageErrors.push(text);
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
    .poll(async () => (await facts(page, 'active')).some((f) => f.content.includes(needle)), {
      timeout: 15_000,
      intervals: [250, 500, 1_000],
    })
    .toBe(true);
  return (await facts(page, 'active')).find((f) => f.content.includes(needle))!;
}

/** Post-turn work (facts, episodes, summary) runs right after each reply: wait until memory stops changing. */
export async function waitForMemoryToSettle(page: Page) {
  let previous = '';
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await (await page.request.get('/api/memory')).json());
        const settled = now === previous;
        previous = now;
        return settled;
      },
      { timeout: 20_000, intervals: [750] },
    )
    .toBe(true);
}

/** Waits for one fact row in a facts view (the inspector's): the view re-reads after each turn; its refresh button covers a slow extraction. */
export async function waitForFactRow(view: Locator, row: Locator) {
  await expect
    .poll(
      async () => {
        if ((await row.count()) === 0) await view.getByTestId('facts-refresh').click();
        return row.count();
      },
      { timeout: 10_000 },
    )
    .toBe(1);
}

export type StoredMessage = {
  id: string;
  role: string;
  content: string;
  status: string;
  error: string | null;
  replyTo: string | null;
  marks: Array<{ start: number; end: number; kind: string }>;
};

/** A conversation's messages as the API stores them. */
export async function storedMessages(page: Page, conversationId: string): Promise<StoredMessage[]> {
  const response = await page.request.get(`/api/conversations/${conversationId}/messages`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { messages: StoredMessage[] }).messages;
}

/** A fresh address for a test's account. */
export const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@memlens.test`;

/** Fills and submits the sign-up or sign-in form; `next` is where it leads afterwards. */
export async function submitAuth(page: Page, mode: 'sign-up' | 'sign-in', email: string, password: string, next?: string) {
  await page.goto(`${mode === 'sign-up' ? '/signup' : '/login'}${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await waitForHydration(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: mode === 'sign-up' ? 'Create account' : 'Sign in' }).click();
}

/**
 * The newest link mailed to `email` whose subject matches, from the e2e mailbox (real SMTP, see
 * e2e/setup/mailbox.ts); waits for it to arrive.
 */
export async function mailedLink(email: string, subject: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mails = fs
          .readFileSync(MAILBOX_FILE, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { to: string[]; body: string });
        // quoted-printable folds long lines with "=\r\n" and writes "=" as "=3D".
        const bodies = mails
          .filter((mail) => mail.to.includes(email.toLowerCase()))
          .map((mail) => mail.body.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
        const body = bodies.reverse().find((text) => subject.test(text));
        link = body ? /https?:\/\/\S+/.exec(body)?.[0] : undefined;
        return link;
      },
      { message: `a mail to ${email} matching ${subject}` },
    )
    .toBeTruthy();
  return link!;
}

/** Switches the page to the dark theme and waits until it is painted in it. */
export async function switchToDarkTheme(page: Page) {
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(14, 16, 20)');
}

/** Screenshots go to e2e/artifacts/ (not committed). */
export function artifactPath(file: string): string {
  const dir = path.join(import.meta.dirname, 'artifacts');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, file);
}

/** A screenshot of the viewport, with the mouse out of the way, saved as e2e/artifacts/<name>.png. */
export async function screenshot(page: Page, name: string) {
  const file = artifactPath(`${name}.png`);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: file, fullPage: false });
  expect(fs.statSync(file).size).toBeGreaterThan(10_000);
}

const STAFF_EMAIL = 'staff@memlens.test';
const PASSWORD = 'staff password 1';
/** Signs up the staff address and proves it by following the mailed link (or signs in, when an earlier test of this run already did). */
export async function becomeStaff(page: Page) {
  await submitAuth(page, 'sign-up', STAFF_EMAIL, PASSWORD, '/staff');
  const outcome = await Promise.race([
    page.waitForURL(/\/staff$/).then(() => 'in' as const),
    page
      .getByTestId('auth-error')
      .waitFor()
      .then(() => 'exists' as const),
  ]);
  if (outcome === 'exists') {
    await submitAuth(page, 'sign-in', STAFF_EMAIL, PASSWORD, '/staff');
    await page.waitForURL(/\/staff$/);
  } else {
    // Listed but not yet verified, the address is a user: the console answers 403 until the mailed link is followed.
    await expect(page.getByTestId('forbidden-page')).toBeVisible();
    expect((await page.request.get('/api/staff/users?q=a', { headers: { 'x-memlens-staff': '1' } })).status()).toBe(403);
    await page.goto(await mailedLink(STAFF_EMAIL, /Subject: Verify your memlens email/));
    await page.goto('/staff');
  }
  await expect(page.getByTestId('staff-console')).toBeVisible();
  await waitForHydration(page);
}

/** POST /api/import with the page's session, then waits for the worker to finish it; returns the conversation's id. */
export async function importConversation(
  page: Page,
  data: { title?: string; messages: Array<{ role: string; content: string }> },
): Promise<string> {
  const queued = await page.request.post('/api/import', { data });
  expect(queued.status()).toBe(202);
  const { id } = ((await queued.json()) as { import: { id: string } }).import;
  let conversationId: string | null = null;
  await expect
    .poll(
      async () => {
        const view = (
          (await (await page.request.get(`/api/import/${id}`)).json()) as { import: { status: string; conversationId: string | null } }
        ).import;
        conversationId = view.conversationId;
        return view.status;
      },
      { timeout: 30_000 },
    )
    .toBe('done');
  return conversationId!;
}
