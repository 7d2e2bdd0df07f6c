import { expect, test } from '../fixtures';
import { uniqueEmail } from '../pages/auth-page';

// Pictures of the staff console, light and dark: the users page, a user's page on a 390-pixel phone,
// the jobs and the audit log. What they show is asserted by e2e/staff*.spec.ts.

test('the staff console, light and dark', async ({ page, app, auth, chat, memory, staffConsole }) => {
  test.setTimeout(180_000);
  await chat.newConversation();
  await chat.exchange('My name is Ottoline and I live in Valparaíso.');
  await memory.waitForFact('Valparaíso');
  await chat.exchange('我喜欢喝乌龙茶。');
  await memory.waitToSettle();
  const email = uniqueEmail('ottoline');
  await auth.submitPastLimit('sign-up', email, 'user password 1', (url) => url.pathname.startsWith('/c/'));
  const userId = (await (await page.request.get('/api/me')).json()).user.id as string;
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('account-menu')).toHaveAttribute('data-kind', 'guest');
  await staffConsole.signIn();
  await page.goto('/');
  await expect(page.getByTestId('staff-console-link')).toBeVisible();
  await app.screenshot('staff-sidebar-link');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const suffix = scheme === 'dark' ? '-dark' : '';
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/staff?q=${encodeURIComponent(email)}`);
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    await app.screenshot(`staff-users${suffix}`);

    await page.goto(`/staff/jobs?userId=${userId}`);
    await expect(page.getByTestId('job').first()).toBeVisible();
    await app.screenshot(`staff-jobs${suffix}`);

    await page.goto(`/staff/audit?targetUserId=${encodeURIComponent(email)}`);
    await expect(page.getByTestId('audit-entry').first()).toBeVisible();
    await app.screenshot(`staff-audit${suffix}`);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/staff/users/${userId}`);
    await expect(page.getByTestId('staff-fact').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await app.screenshot(`staff-user-phone${suffix}`);
  }
});
