import fs from 'node:fs';
import { expect } from '@playwright/test';
import { MAILBOX_FILE } from '../mailbox-config';
import { AppPage } from './app-page';

/** The sign-up and sign-in forms. */
export class AuthPage extends AppPage {
  /** Fills and submits the sign-up or sign-in form; `next` is where it leads afterwards. */
  async submit(mode: 'sign-up' | 'sign-in', email: string, password: string, next?: string) {
    await this.page.goto(`${mode === 'sign-up' ? '/signup' : '/login'}${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    await this.waitForHydration();
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: mode === 'sign-up' ? 'Create account' : 'Sign in' }).click();
  }

  /**
   * Signs in on the sign-in page at `loginUrl` as typed (its `?next=` not encoded again), retried past
   * better-auth's per-address limit (see submitPastLimit) until the browser lands where `landed` says.
   */
  async signInAt(loginUrl: string, email: string, password: string, landed: (url: URL) => boolean) {
    await expect(async () => {
      await this.page.goto(loginUrl);
      await this.waitForHydration();
      await this.page.getByLabel('Email').fill(email);
      await this.page.getByLabel('Password').fill(password);
      await this.page.getByRole('button', { name: 'Sign in' }).click();
      await this.page.waitForURL(landed, { timeout: 5_000 });
    }).toPass({ intervals: [11_000], timeout: 60_000 });
  }

  /**
   * Signs up and opens the mailed verification link in this page, which signs it in and leads to
   * `next` (sign-up itself signs nobody in: it says to check the mail). Retried past better-auth's
   * per-address limit, as submitPastLimit is.
   */
  async signUp(email: string, password: string, next?: string) {
    await expect(async () => {
      await this.submit('sign-up', email, password, next);
      await this.page.getByTestId('check-mail').waitFor({ timeout: 5_000 });
    }).toPass({ intervals: [11_000], timeout: 60_000 });
    await this.page.goto(await mailedLink(email, /Subject: Verify your memlens email/));
  }

  /**
   * Submits until the browser lands where `landed` says (a sign-up through its mailed link): better-auth
   * allows 3 sign-ins (and 3 sign-ups) per 10 s from one address, and every request of the suite is one
   * address, so wait a window out when refused.
   */
  async submitPastLimit(mode: 'sign-up' | 'sign-in', email: string, password: string, landed: (url: URL) => boolean, next?: string) {
    if (mode === 'sign-up') {
      await this.signUp(email, password, next);
      await this.page.waitForURL(landed);
      return;
    }
    await expect(async () => {
      await this.submit(mode, email, password, next);
      await this.page.waitForURL(landed, { timeout: 5_000 });
    }).toPass({ intervals: [11_000], timeout: 60_000 });
  }
}

/** A fresh address for a test's account. */
export const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@memlens.test`;

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
