import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';
import { uniqueEmail } from './pages/auth-page';

// axe-core (WCAG 2 A and AA rules) on every page a user and staff reach, with its sections and help
// notes open, in the light and the dark theme (the app follows prefers-color-scheme), wide and on a
// 390-pixel phone. Any serious or critical violation fails the test, listed with the nodes it was
// found on and, for contrast, the colours and ratio. The server runs the built-in offline model.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

type Scheme = 'light' | 'dark';
const SCHEMES: Scheme[] = ['light', 'dark'];

/** Body backgrounds of the two themes (app/globals.css, --color-canvas). */
const CANVAS: Record<Scheme, string> = { light: 'rgb(247, 247, 249)', dark: 'rgb(14, 16, 20)' };

/** Waits until the page is painted in `scheme` and no colour transition is still running. */
async function paintIn(page: Page, scheme: Scheme) {
  await page.emulateMedia({ colorScheme: scheme });
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(CANVAS[scheme]);
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((animation) => animation instanceof CSSTransition).length))
    .toBe(0);
}

type Check = { name: string; scheme: Scheme; violations: number; nodes: number };
const checks: Check[] = [];

/** One line per node of a serious or critical violation, with the contrast figures axe measured. */
function describeNode(node: { target: unknown[]; any: Array<{ data?: unknown }>; failureSummary?: string }): string {
  const data = node.any.find((check) => check.data && typeof check.data === 'object')?.data as
    | { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string; fontSize?: string; fontWeight?: string }
    | undefined;
  const contrast =
    data?.contrastRatio !== undefined
      ? ` ${data.fgColor} on ${data.bgColor} = ${data.contrastRatio}:1 (needs ${data.expectedContrastRatio}, ${data.fontSize} ${data.fontWeight})`
      : ` ${node.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`;
  return `    ${node.target.join(' > ')}${contrast}`;
}

/** Runs axe on the page as it is now, in both themes (a picture of each in e2e/artifacts/); a serious or critical violation fails the test (softly, so every page is listed). */
async function expectAccessible(app: AppPage, name: string) {
  const page = app.page;
  for (const scheme of SCHEMES) {
    await paintIn(page, scheme);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    const nodes = serious.reduce((sum, violation) => sum + violation.nodes.length, 0);
    checks.push({ name, scheme, violations: serious.length, nodes });
    const report = serious.map(
      (violation) =>
        `  ${violation.id} (${violation.impact}, ${violation.nodes.length} nodes): ${violation.help}\n${violation.nodes.map(describeNode).join('\n')}`,
    );
    if (report.length > 0) console.log(`axe: ${name}, ${scheme}\n${report.join('\n')}`);
    await app.screenshot(`a11y-${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}-${scheme}`);
    expect
      .soft(
        serious.map((violation) => `${violation.id}: ${violation.nodes.length} nodes`),
        `${name}, ${scheme}`,
      )
      .toEqual([]);
  }
  await paintIn(page, 'light');
}

/** Opens every collapsed section, disclosure and help note inside `scope` (a few passes: an opened section may hold more). */
async function expandAll(scope: Locator) {
  for (let pass = 0; pass < 4; pass++) {
    const collapsed = await scope.locator('button[aria-expanded="false"]:enabled:visible').elementHandles();
    if (collapsed.length === 0) return;
    for (const button of collapsed) {
      const stillCollapsed = (await button.getAttribute('aria-expanded')) === 'false';
      if (stillCollapsed && (await button.isVisible()) && (await button.isEnabled())) await button.click();
    }
  }
}

test.afterAll(() => {
  if (checks.length > 0)
    console.log(
      `axe, serious and critical:\n${checks.map((check) => `  ${check.name} (${check.scheme}): ${check.violations} rules, ${check.nodes} nodes`).join('\n')}`,
    );
});

/** A conversation long enough for a summary, imported, so /memory shows facts, exchanges and summaries. */
const PLANS = Array.from({ length: 13 }, (_, i) => [
  i === 0 ? 'I am planning a walking holiday in the Dolomites.' : `Day ${i} of the route: note the hut for the night.`,
  i === 0 ? 'The Dolomites are lovely in early autumn.' : `Noted the hut for day ${i}.`,
]);

test("a user's pages: sign-in forms, home, a conversation with its inspector, memory, account and import", async ({
  page,
  app,
  auth,
  chat,
  inspector,
  memory,
}) => {
  test.setTimeout(300_000);
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const size = viewport === PHONE ? ' (phone)' : '';
    for (const url of ['/login', '/signup']) {
      await page.goto(url);
      await app.waitForHydration();
      await expectAccessible(app, `${url}${size}`);
    }
  }
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  await app.waitForHydration();
  await expectAccessible(app, 'home, no conversation yet');

  await auth.signUp(uniqueEmail('a11y'), 'a11y password 1');
  await page.waitForURL((url) => url.pathname === '/');
  await app.waitForHydration();
  // The chat first: with a conversation already there, home opens it instead of the empty screen.
  const { conversationId, reply } = await chat.askAboutALearnedFact(memory);
  await chat.exchange('I also like hiking in the mountains.');
  await memory.importConversation({
    title: 'Walking holiday',
    messages: PLANS.flatMap(([q, a]) => [
      { role: 'user', content: q },
      { role: 'assistant', content: a },
    ]),
  });
  await memory.waitToSettle();

  // The conversation, the inspector on a reply that has a turn record, its sections open.
  await page.goto(`/c/${conversationId}`);
  await app.waitForHydration();
  await reply.getByRole('button', { name: /Inspect/ }).click();
  await expect(inspector.root).toHaveAttribute('data-status', 'complete');
  await expectAccessible(app, 'conversation, inspector on a reply');
  await expandAll(inspector.root);
  await expectAccessible(app, 'conversation, inspector sections open');
  await inspector.root.getByTestId('tab-memory').click();
  await expect(inspector.root.getByTestId('danger-zone')).toBeVisible();
  await expandAll(inspector.root);
  await expectAccessible(app, 'conversation, inspector memory tab');

  await page.goto('/memory');
  await app.waitForHydration();
  await expect(page.getByTestId('memory-fact').first()).toBeVisible();
  await expect(page.getByTestId('memory-summary').first()).toBeVisible();
  await expectAccessible(app, '/memory');
  await expandAll(page.getByTestId('memory-page'));
  await expectAccessible(app, '/memory, details open');

  for (const url of ['/account', '/import']) {
    await page.goto(url);
    await app.waitForHydration();
    await expectAccessible(app, url);
  }

  await page.setViewportSize(PHONE);
  await page.goto(`/c/${conversationId}`);
  await app.waitForHydration();
  await expectAccessible(app, 'conversation (phone)');
  await page.getByTestId('inspector-toggle').click();
  await expect(inspector.root).toBeVisible();
  await expectAccessible(app, 'conversation, inspector drawer (phone)');
  for (const url of ['/memory', '/account', '/import']) {
    await page.goto(url);
    await app.waitForHydration();
    await expectAccessible(app, `${url} (phone)`);
  }
});

test('the staff console: users, a user, a conversation with a turn record open, the audit log and jobs', async ({
  page,
  app,
  auth,
  chat,
  memory,
  staffConsole,
}) => {
  test.setTimeout(300_000);
  const { conversationId, reply } = await chat.askAboutALearnedFact(memory);
  const replyId = (await reply.getAttribute('data-message-id'))!;
  await memory.waitToSettle();
  const userEmail = uniqueEmail('a11y-user');
  await auth.signUp(userEmail, 'user password 1');
  await page.waitForURL(`**/c/${conversationId}`);
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'guest');
  await staffConsole.signIn();

  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const size = viewport === PHONE ? ' (phone)' : '';
    await page.goto(`/staff?q=${encodeURIComponent(userEmail)}`);
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    await expectAccessible(app, `staff users${size}`);

    await page.getByTestId('user-row').first().click();
    await page.waitForURL(/\/staff\/users\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('staff-fact').first()).toBeVisible();
    await expectAccessible(app, `staff user${size}`);

    await page.goto(`/staff/conversations/${conversationId}?turn=${replyId}`);
    const turn = page.getByTestId('inspector');
    await expect(turn).toHaveAttribute('data-message-id', replyId);
    await expect(turn.getByTestId('budget-total')).toBeVisible();
    await app.waitForHydration();
    await expectAccessible(app, `staff conversation, turn record${size}`);
    await expandAll(turn);
    await expectAccessible(app, `staff conversation, turn record sections open${size}`);

    await page.goto('/staff/audit');
    await expect(page.getByTestId('audit-entry').first()).toBeVisible();
    await page.getByTestId('audit-entry').first().getByTestId('audit-details-toggle').click();
    await expectAccessible(app, `staff audit${size}`);

    await page.goto('/staff/jobs');
    await expect(page.getByTestId('job').first()).toBeVisible();
    await expectAccessible(app, `staff jobs${size}`);
  }
});
