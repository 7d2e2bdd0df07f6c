import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as me } from '@/app/api/me/route';
import { setEnv } from '@/tests/support/app';
import { browser, email, mailedLinks, signUp } from '@/tests/support/auth';
import { startSmtpMailbox } from '@/tests/support/smtp-mailbox';

describe('verification', () => {
  it('sign-up starts no session; the mailed link proves the address and signs in the browser that opens it', async () => {
    const address = email();
    const b = browser();
    const { result: signup, links } = await mailedLinks(() =>
      b.auth('sign-up/email', { email: address, password: 'proven by mail 1', name: 'Eve' }),
    );
    expect(signup.status).toBe(200);
    expect(await signup.json()).toMatchObject({ token: null, user: { email: address, emailVerified: false } });
    expect(await (await b.auth('get-session')).json()).toBeNull();
    // Until the address is proven the password opens nothing.
    const early = await browser().auth('sign-in/email', { email: address, password: 'proven by mail 1' });
    expect(early.status).toBe(403);
    expect((await early.json()).code).toBe('EMAIL_NOT_VERIFIED');

    // The server log holds the link (no SMTP_URL here).
    expect(links.map((mail) => mail.to)).toEqual([address]);
    expect((await b.follow(links[0].link)).status).toBe(302);
    expect((await (await me(b.request('/api/me'))).json()).user).toMatchObject({ kind: 'member', role: 'user', email: address });
    expect((await browser().auth('sign-in/email', { email: address, password: 'proven by mail 1' })).status).toBe(200);
  });

  it('a forged or altered verification link proves nothing', async () => {
    const address = email();
    const b = browser();
    const { links } = await mailedLinks(() => b.auth('sign-up/email', { email: address, password: 'unproven 2', name: 'Mal' }));
    const altered = links[0].link.replace(/token=([^&]+)/u, (_, token: string) => `token=${token.slice(0, -3)}abc`);
    expect((await b.follow(altered)).headers.get('location')).toMatch(/error=INVALID_TOKEN/u);
    expect(await (await b.auth('get-session')).json()).toBeNull();
    expect((await browser().auth('sign-in/email', { email: address, password: 'unproven 2' })).status).toBe(403);
  });
});

describe('mail over SMTP', () => {
  const received: Array<{ to: string; body: string }> = [];
  let mailbox: Awaited<ReturnType<typeof startSmtpMailbox>>;

  beforeAll(async () => {
    mailbox = await startSmtpMailbox(0, (mail) => received.push({ to: mail.to.join(','), body: mail.body }));
    setEnv({ SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`, MAIL_FROM: 'memlens test <test@memlens.test>' });
  });

  afterAll(async () => {
    setEnv({ SMTP_URL: undefined, MAIL_FROM: undefined });
    await mailbox.close();
  });

  // quoted-printable bodies fold long lines with "=\r\n" and escape "=" as "=3D".
  const linkIn = (body: string) => /https?:\/\/\S+/u.exec(body.replace(/=\r?\n/gu, '').replace(/=3D/gu, '='))![0];
  const mailTo = (address: string) => received.filter((mail) => mail.to === address).map((mail) => mail.body);

  it('sign-up mails a verification link that verifies; a reset mail sets a new password and ends every session', async () => {
    const address = email();
    const b = browser();
    expect((await b.auth('sign-up/email', { email: address, password: 'first password 1', name: 'Sam' })).status).toBe(200);
    const [verification] = mailTo(address);
    expect(verification).toMatch(/Subject: Verify your memlens email/u);
    expect(verification).toMatch(/From: memlens test <test@memlens.test>/u);
    expect((await b.follow(linkIn(verification))).status).toBe(302);
    expect((await (await b.auth('get-session')).json()).user.emailVerified).toBe(true);

    const other = browser();
    expect((await other.auth('request-password-reset', { email: address, redirectTo: '/reset-password' })).status).toBe(200);
    const reset = mailTo(address)[1];
    expect(reset).toMatch(/Subject: Reset your memlens password/u);
    const opened = await other.follow(linkIn(reset));
    expect(opened.status).toBe(302);
    const token = new URL(opened.headers.get('location')!, 'http://x').searchParams.get('token');
    expect(token).toBeTruthy();
    expect((await other.auth('reset-password', { token, newPassword: 'second password 2' })).status).toBe(200);

    expect(await (await b.auth('get-session')).json()).toBeNull(); // the session from before the reset has ended
    const laptop = browser();
    expect((await laptop.auth('sign-in/email', { email: address, password: 'first password 1' })).status).toBe(401);
    expect((await laptop.auth('sign-in/email', { email: address, password: 'second password 2' })).status).toBe(200);
    // The token is spent.
    expect((await other.auth('reset-password', { token, newPassword: 'third password 3' })).status).toBe(400);
  });

  it('a reset asked for an unknown address sends nothing and says the same as for a known one', async () => {
    const before = received.length;
    const response = await browser().auth('request-password-reset', { email: email(), redirectTo: '/reset-password' });
    expect(response.status).toBe(200);
    expect(received.length).toBe(before);
  });
});

describe('change password', () => {
  it('needs the current password, and ends the other sessions', async () => {
    const address = email();
    const phone = browser();
    await signUp(phone, { email: address, password: 'old password 1', name: 'Kim' });
    const laptop = browser();
    expect((await laptop.auth('sign-in/email', { email: address, password: 'old password 1' })).status).toBe(200);

    expect(
      (await phone.auth('change-password', { currentPassword: 'not it at all', newPassword: 'new password 2', revokeOtherSessions: true }))
        .status,
    ).toBe(400);
    expect(
      (await phone.auth('change-password', { currentPassword: 'old password 1', newPassword: 'new password 2', revokeOtherSessions: true }))
        .status,
    ).toBe(200);
    expect((await (await phone.auth('get-session')).json()).user.email).toBe(address);
    expect(await (await laptop.auth('get-session')).json()).toBeNull();
    expect((await browser().auth('sign-in/email', { email: address, password: 'new password 2' })).status).toBe(200);
  });
});
