import nodemailer, { type Transporter } from 'nodemailer';
import { getConfig } from './config';

/** A mail the app sends: a verification or password-reset link, with a line of text around it. */
export type OutgoingMail = { to: string; subject: string; text: string; link: string };

export const LOGGED_MAIL_PREFIX = '[memlens] mail (no SMTP_URL, not sent):';

/**
 * Sends through the SMTP server of `SMTP_URL` (nodemailer), from `MAIL_FROM`. With no SMTP_URL
 * the mail is not sent: its link is written to the server log on one line, so a developer on one
 * machine can still verify an account or reset a password.
 */
export async function sendMail(mail: OutgoingMail): Promise<void> {
  const config = getConfig();
  if (!config.SMTP_URL) {
    console.info(`${LOGGED_MAIL_PREFIX} to ${mail.to}: ${mail.subject}: ${mail.link}`);
    return;
  }
  await transportFor(config.SMTP_URL).sendMail({ from: config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
}

// One pooled transport per SMTP_URL in this process (tests change it between cases).
let cached: { url: string; transport: Transporter } | undefined;

function transportFor(url: string): Transporter {
  if (cached?.url !== url) {
    cached?.transport.close();
    cached = { url, transport: nodemailer.createTransport(url) };
  }
  return cached.transport;
}
