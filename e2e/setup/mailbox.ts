/**
 * The e2e server sends its mail (verification, reset and staff-invite links) over real SMTP to this
 * server on 127.0.0.1, which appends each mail to MAILBOX_FILE as a JSON line; e2e/pages/auth-page.ts
 * reads links from it. It runs as the first of playwright.config.ts's web servers, so it is listening
 * before the app starts (the app mails its STAFF_EMAILS invites at start-up).
 */
import fs from 'node:fs';
import { startSmtpMailbox } from '../../tests/support/smtp-mailbox';
import { MAILBOX_FILE } from '../mailbox-config';
import { SMTP_PORT } from '../ports';

fs.writeFileSync(MAILBOX_FILE, '');
const mailbox = await startSmtpMailbox(SMTP_PORT, (mail) => fs.appendFileSync(MAILBOX_FILE, `${JSON.stringify(mail)}\n`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void mailbox.close().then(() => process.exit(0)));
