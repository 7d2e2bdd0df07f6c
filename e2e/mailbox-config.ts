import os from 'node:os';
import path from 'node:path';

// The e2e mailbox (e2e/setup/mailbox.ts): beside the app's e2e port, so side-by-side checkouts do not meet.
export const SMTP_PORT = Number(process.env.E2E_PORT || 3100) + 1000;
export const MAILBOX_FILE = path.join(os.tmpdir(), `memlens-e2e-mailbox-${SMTP_PORT}.jsonl`);
