import { expect } from '@playwright/test';
import { AppPage } from './app-page';
import { AuthPage, mailedLink } from './auth-page';

// playwright.config.ts lists this address in STAFF_EMAILS.
export const STAFF_EMAIL = 'staff@memlens.test';
const PASSWORD = 'staff password 1';

/** The staff console at /staff. */
export class StaffConsole extends AppPage {
  /** Signs up the staff address and proves it by following the mailed link (or signs in, when an earlier test of this run already did). */
  async signIn() {
    const page = this.page;
    const auth = new AuthPage(page);
    await auth.submit('sign-up', STAFF_EMAIL, PASSWORD, '/staff');
    const outcome = await Promise.race([
      page.waitForURL(/\/staff$/).then(() => 'in' as const),
      page
        .getByTestId('auth-error')
        .waitFor()
        .then(() => 'exists' as const),
    ]);
    if (outcome === 'exists') {
      await auth.submitPastLimit('sign-in', STAFF_EMAIL, PASSWORD, (url) => url.pathname === '/staff', '/staff');
    } else {
      // Listed but not yet verified, the address is a user: the console answers 403 until the mailed link is followed.
      await expect(page.getByTestId('forbidden-page')).toBeVisible();
      expect((await page.request.get('/api/staff/users?q=a', { headers: { 'x-memlens-staff': '1' } })).status()).toBe(403);
      await page.goto(await mailedLink(STAFF_EMAIL, /Subject: Verify your memlens email/));
      await page.goto('/staff');
    }
    await expect(page.getByTestId('staff-console')).toBeVisible();
    await this.waitForHydration();
  }
}
