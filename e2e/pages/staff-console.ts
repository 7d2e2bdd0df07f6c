import { expect } from '@playwright/test';
import { AppPage } from './app-page';
import { AuthPage, mailedLink } from './auth-page';

// playwright.config.ts lists this address in STAFF_EMAILS.
export const STAFF_EMAIL = 'staff@memlens.test';
const PASSWORD = 'staff password 1';

/** The staff console at /staff. */
export class StaffConsole extends AppPage {
  /**
   * Signs in as staff. The address is invited at start-up (STAFF_EMAILS): the first time, the mailed
   * invite link sets the password (until then the address cannot sign in); later its link is spent.
   */
  async signIn() {
    const page = this.page;
    const auth = new AuthPage(page);
    await page.goto(await mailedLink(STAFF_EMAIL, /Subject: You are invited to be memlens staff/));
    await page.waitForURL(/\/reset-password\?/);
    if (new URL(page.url()).searchParams.get('token')) {
      await this.waitForHydration();
      await page.getByLabel('New password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Set the password' }).click();
      await expect(page.getByTestId('form-done')).toBeVisible();
    }
    await auth.submitPastLimit('sign-in', STAFF_EMAIL, PASSWORD, (url) => url.pathname === '/staff', '/staff');
    await expect(page.getByTestId('staff-console')).toBeVisible();
    await this.waitForHydration();
  }
}
