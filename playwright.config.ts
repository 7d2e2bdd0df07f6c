import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { APP_PORT, SMTP_PORT } from './e2e/ports';

const baseURL = `http://127.0.0.1:${APP_PORT}`;

// The app must run on the built-in offline model: no key may leak in from the shell.
delete process.env.OPENAI_API_KEY;
delete process.env.DATABASE_URL;

// A fresh embedded database per run. The config is evaluated again in worker processes, but only
// the runner starts the web server, so this one path is what the server uses.
const dataDir = path.join(os.tmpdir(), `memlens-e2e-${Date.now()}`);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-gpu',
      ],
    },
  },
  webServer: [
    // First, a local SMTP server that keeps the mail the app sends (e2e/setup/mailbox.ts): the app
    // mails its staff invites as it starts. Playwright starts web servers in order, before any global setup.
    {
      command: 'npx tsx e2e/setup/mailbox.ts',
      port: SMTP_PORT,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    {
      command: 'npm run build && npx tsx --conditions=react-server scripts/start.ts start',
      url: baseURL,
      // The command builds first: a cold `next build` alone takes 1-5 minutes on a small CI machine, and
      // passed 10 on this 2-core machine while other work shared it.
      timeout: 1_200_000,
      reuseExistingServer: false,
      // E2E_SERVER_LOG=1 shows the build and server output.
      stdout: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      env: {
        PORT: String(APP_PORT),
        APP_HOST: '127.0.0.1',
        PGLITE_DIR: dataDir,
        OFFLINE_STREAM_DELAY_MS: '60',
        OPENAI_API_KEY: '',
        DATABASE_URL: '',
        NEXT_TELEMETRY_DISABLED: '1',
        // Every test is a fresh browser, hence a new guest, all from one address.
        GUESTS_PER_ADDRESS_PER_HOUR: '10000',
        // Invited at start-up; e2e/pages/staff-console.ts sets its password through the mailed link.
        STAFF_EMAILS: 'staff@memlens.test',
        // e2e/server-hardening.spec.ts trickles a body past it (the default is 30 s).
        REQUEST_TIMEOUT_MS: '5000',
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        MAIL_FROM: 'memlens e2e <e2e@memlens.test>',
      },
    },
  ],
});
