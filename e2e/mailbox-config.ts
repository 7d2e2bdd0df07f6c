import os from 'node:os';
import path from 'node:path';
import { SMTP_PORT } from './ports';

// The e2e mailbox (e2e/setup/mailbox.ts) appends each mail here; named by its port, so side-by-side runs keep their own.
export const MAILBOX_FILE = path.join(os.tmpdir(), `memlens-e2e-mailbox-${SMTP_PORT}.jsonl`);
