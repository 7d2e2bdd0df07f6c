import { test as base, expect } from '@playwright/test';
import { AppPage } from './pages/app-page';
import { AuthPage, uniqueEmail } from './pages/auth-page';
import { ChatPage } from './pages/chat-page';
import { InspectorPanel } from './pages/inspector-panel';
import { MemoryApi } from './pages/memory-api';
import { StaffConsole } from './pages/staff-console';

/**
 * What the e2e specs are written with. Every test gets a fresh browser context with no session: it
 * becomes a guest with its first conversation. The page objects all drive the test's own `page`.
 */
type Fixtures = {
  /** Uncaught exceptions, React hydration errors and CSP violations fail the test that caused them. */
  failOnPageErrors: undefined;
  app: AppPage;
  chat: ChatPage;
  inspector: InspectorPanel;
  memory: MemoryApi;
  auth: AuthPage;
  /** The staff console on the test's page; `signIn()` makes the test's visitor the staff member. */
  staffConsole: StaffConsole;
  /** A member signed up with a fresh address, signed in on the test's page. */
  member: { email: string; password: string };
};

export const test = base.extend<Fixtures>({
  failOnPageErrors: [
    async ({ context }, use) => {
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
        });
      });
      const pageErrors: string[] = [];
      context.on('weberror', (error) => pageErrors.push(error.error().message));
      context.on('console', (message) => {
        const text = message.text();
        const cspViolation = /CSP violation/u.test(text) && !text.includes('frame-ancestors'); // e2e/security.spec.ts frames the app on purpose
        if (message.type() === 'error' && (/hydrat/i.test(text) || cspViolation)) pageErrors.push(text);
      });
      await use(undefined);
      expect(pageErrors, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  app: async ({ page }, use) => use(new AppPage(page)),
  chat: async ({ page }, use) => use(new ChatPage(page)),
  inspector: async ({ page }, use) => use(new InspectorPanel(page)),
  memory: async ({ page }, use) => use(new MemoryApi(page)),
  auth: async ({ page }, use) => use(new AuthPage(page)),
  staffConsole: async ({ page }, use) => use(new StaffConsole(page)),
  member: async ({ auth }, use) => {
    const member = { email: uniqueEmail('member'), password: 'member password 1' };
    await auth.submitPastLimit('sign-up', member.email, member.password, (url) => url.pathname === '/');
    await use(member);
  },
});

export { expect };

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
