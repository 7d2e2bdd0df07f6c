import fs from 'node:fs';
import { startSmtpMailbox } from '../../tests/support/smtp-mailbox';
import { MAILBOX_FILE } from '../mailbox-config';
import { SMTP_PORT } from '../ports';

/**
 * The e2e server sends its mail (verification and reset links) over real SMTP to this server on
 * 127.0.0.1, which appends each mail to MAILBOX_FILE as a JSON line; e2e/support.ts reads links from it.
 */
export default async function startMailbox() {
  fs.writeFileSync(MAILBOX_FILE, '');
  const mailbox = await startSmtpMailbox(SMTP_PORT, (mail) => fs.appendFileSync(MAILBOX_FILE, `${JSON.stringify(mail)}\n`));
  return mailbox.close;
}
