import fs from 'node:fs';
import { SMTPServer } from 'smtp-server';
import { MAILBOX_FILE, SMTP_PORT } from '../mailbox-config';

/**
 * The e2e server sends its mail (verification and reset links) over real SMTP to this server on
 * 127.0.0.1, which appends each mail to MAILBOX_FILE as a JSON line; e2e/support.ts reads links from it.
 */
export default async function startMailbox() {
  fs.writeFileSync(MAILBOX_FILE, '');
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      let body = '';
      stream.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      stream.on('end', () => {
        fs.appendFileSync(MAILBOX_FILE, `${JSON.stringify({ to: session.envelope.rcptTo.map((r) => r.address), body })}\n`);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(SMTP_PORT, '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
