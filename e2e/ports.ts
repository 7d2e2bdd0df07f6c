import getPort from 'get-port';

// Free ports, so that two checkouts running the suite at once do not meet. Playwright evaluates its
// config in the runner and again in each worker: the runner picks the ports and writes them to its
// environment, which the workers inherit, so every process reads the same values. E2E_PORT and
// E2E_SMTP_PORT set by hand win.
process.env.E2E_PORT ||= String(await getPort({ host: '127.0.0.1' }));
process.env.E2E_SMTP_PORT ||= String(await getPort({ host: '127.0.0.1' }));

/** The e2e app server's port. */
export const APP_PORT = Number(process.env.E2E_PORT);
/** The e2e mailbox's SMTP port (e2e/setup/mailbox.ts). */
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT);
