import { afterEach, describe, expect, it } from 'vitest';
import { GET as me } from '@/app/api/me/route';
import { GET as staffUsers } from '@/app/api/staff/users/route';
import { getSql } from '@/db/client';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { inviteStaff, withdrawInvite } from '@/lib/staff-invite';
import { setEnv } from '@/tests/support/app';
import { browser, email, mailedLinks, resetTokenOf, signUp } from '@/tests/support/auth';

// Staff are invited (lib/staff-invite.ts): an address listed in STAFF_EMAILS, signed up or verified,
// is a user. These are the attacks on that, through the real auth routes.

type Browser = ReturnType<typeof browser>;

const role = async (b: Browser) => (await (await me(b.request('/api/me'))).json()).user.role;
const session = async (b: Browser) => (await b.auth('get-session')).json();
const staffConsole = async (b: Browser) => (await staffUsers(b.request('/api/staff/users?q=a'))).status;
const accounts = async (address: string) => (await getSql()`select id from auth_users where email = ${address}`).length;
const roleChanges = async (address: string) =>
  (
    await getSql()`select a.action, a.after->>'via' as via from audit_log a join users u on u.id = a.target_user_id
      where u.email = ${address} and a.object_type = 'user' order by a.id`
  ).map((row) => [row.action, row.via]);

/** Invites `address` and returns the link it mailed. */
async function invite(address: string, via: 'STAFF_EMAILS' | 'grant' = 'STAFF_EMAILS') {
  const { result, links } = await mailedLinks(() => inviteStaff(address, via));
  expect(result).toBe('invited');
  expect(links.map((mail) => mail.to)).toEqual([address]);
  return links[0].link;
}

/** The mailbox owner opens the invite link in `b` and chooses `password` there. */
async function accept(b: Browser, link: string, password: string) {
  const token = await resetTokenOf(b, link);
  expect((await b.auth('reset-password', { token, newPassword: password })).status).toBe(200);
}

afterEach(() => setEnv({ STAFF_EMAILS: undefined }));

describe('staff are invited', () => {
  it('an attacker who signs up a listed address first is never staff: not when the owner verifies it, not after the invite', async () => {
    const address = email();
    setEnv({ STAFF_EMAILS: address });
    const attacker = browser();
    const { links } = await mailedLinks(() =>
      attacker.auth('sign-up/email', { email: address, password: 'attacker password 1', name: 'Eve' }),
    );
    expect(await session(attacker)).toBeNull();
    // Signed out, the attacker may have the link sent again; it goes to the owner's mailbox only.
    const { links: again } = await mailedLinks(() => attacker.auth('send-verification-email', { email: address }));
    expect([...links, ...again].map((mail) => mail.to)).toEqual([address, address]);

    // The owner opens the verification link (signed out): that proves the address, and makes nobody staff.
    const owner = browser();
    expect((await owner.follow(again[0].link)).status).toBe(302);
    expect(await role(owner)).toBe('user');
    expect(await staffConsole(owner)).toBe(403);
    expect((await attacker.auth('sign-in/email', { email: address, password: 'attacker password 1' })).status).toBe(200);
    expect(await role(attacker)).toBe('user');
    expect(await staffConsole(attacker)).toBe(403);

    // The invite: until its link is used the account is a user, whoever holds a session.
    const link = await invite(address);
    expect(await staffConsole(attacker)).toBe(403);
    await accept(owner, link, 'owner password 1');

    // Every earlier session ended (the attacker's and the owner's), and the attacker's password is gone.
    expect(await session(attacker)).toBeNull();
    expect(await staffConsole(attacker)).toBe(401);
    expect((await attacker.auth('sign-in/email', { email: address, password: 'attacker password 1' })).status).toBe(401);
    expect(await session(owner)).toBeNull();
    expect((await owner.auth('sign-in/email', { email: address, password: 'owner password 1' })).status).toBe(200);
    expect(await role(owner)).toBe('staff');
    expect(await staffConsole(owner)).toBe(200);
    expect(await accounts(address)).toBe(1);
    expect(await roleChanges(address)).toEqual([['grant_staff', 'STAFF_EMAILS']]);
  });

  it('an invite makes the account when there is none; nobody signs up over it; the link makes the owner staff once', async () => {
    const address = email();
    const link = await invite(address, 'grant');
    expect(await accounts(address)).toBe(1);
    // Asked again without resending (a restart with the address listed), a pending invite is left alone.
    expect(await mailedLinks(() => inviteStaff(address, 'STAFF_EMAILS', { resend: false }))).toEqual({ result: 'pending', links: [] });

    // An attacker signing up the invited address is answered as for a new one, and gets nothing.
    const attacker = browser();
    const { result: signup } = await mailedLinks(() =>
      attacker.auth('sign-up/email', { email: address, password: 'attacker password 2', name: 'Eve' }),
    );
    expect(signup.status).toBe(200);
    expect(await session(attacker)).toBeNull();
    expect((await attacker.auth('sign-in/email', { email: address, password: 'attacker password 2' })).status).toBe(401);

    const owner = browser();
    const token = await resetTokenOf(owner, link);
    expect((await owner.auth('reset-password', { token, newPassword: 'owner password 2' })).status).toBe(200);
    expect((await owner.auth('sign-in/email', { email: address, password: 'owner password 2' })).status).toBe(200);
    expect(await role(owner)).toBe('staff');
    expect(await roleChanges(address)).toEqual([['grant_staff', 'grant']]);
    // The link is spent, and staff are not invited twice.
    expect((await owner.auth('reset-password', { token, newPassword: 'third password 3' })).status).toBe(400);
    expect(await inviteStaff(address, 'grant')).toBe('already_staff');
  });

  it('a withdrawn invite: its link sets the password and makes nobody staff', async () => {
    const address = email();
    const link = await invite(address, 'grant');
    expect(await withdrawInvite(address)).toBe(true);
    const owner = browser();
    await accept(owner, link, 'owner password 6');
    expect((await owner.auth('sign-in/email', { email: address, password: 'owner password 6' })).status).toBe(200);
    expect(await role(owner)).toBe('user');
    expect(await roleChanges(address)).toEqual([]);
  });

  it('a guest who signs up with a listed address and verifies it in the same browser is a user', async () => {
    const address = email();
    setEnv({ STAFF_EMAILS: address });
    const b = browser();
    const guest = await b.asGuest();
    await signUp(b, { email: address, password: 'guest upgrade 1', name: 'Guest' });
    const user = (await (await me(b.request('/api/me'))).json()).user;
    expect(user).toMatchObject({ id: guest.id, kind: 'member', role: 'user' });
    expect(await staffConsole(b)).toBe(403);
  });

  it('the attacker cannot move the account to another address, nor sign in after the invite is used, nor keep a password reset of theirs', async () => {
    const address = email();
    setEnv({ STAFF_EMAILS: address });
    const attacker = browser();
    const { links } = await mailedLinks(() =>
      attacker.auth('sign-up/email', { email: address, password: 'attacker password 3', name: 'Eve' }),
    );
    await browser().follow(links[0].link); // the owner, curious
    expect((await attacker.auth('sign-in/email', { email: address, password: 'attacker password 3' })).status).toBe(200);

    // Changing the address is not offered; update-user keeps the email.
    const elsewhere = email();
    expect((await attacker.auth('change-email', { newEmail: elsewhere })).status).toBeGreaterThanOrEqual(400);
    await attacker.auth('update-user', { email: elsewhere });
    expect((await session(attacker)).user.email).toBe(address);

    // A reset the attacker asks for is mailed to the owner, never to them.
    const { links: resets } = await mailedLinks(() =>
      attacker.auth('request-password-reset', { email: address, redirectTo: '/reset-password' }),
    );
    expect(resets.map((mail) => mail.to)).toEqual([address]);

    const owner = browser();
    await accept(owner, await invite(address), 'owner password 3');
    for (const password of ['attacker password 3', 'owner password 1']) {
      expect((await browser().auth('sign-in/email', { email: address, password })).status).toBe(401);
    }
    expect(await session(attacker)).toBeNull();
    expect(await staffConsole(attacker)).toBe(401);
    expect(await staffConsole(owner)).toBe(401); // the owner signs in with the new password first
    expect((await owner.auth('sign-in/email', { email: address, password: 'owner password 3' })).status).toBe(200);
    expect(await staffConsole(owner)).toBe(200);
  });

  it('staff whose invite came from STAFF_EMAILS are users again once taken off the list; invited by hand, they stay', async () => {
    const listed = email();
    const byHand = email();
    setEnv({ STAFF_EMAILS: listed });
    const first = browser();
    await accept(first, await invite(listed, 'STAFF_EMAILS'), 'listed password 1');
    await first.auth('sign-in/email', { email: listed, password: 'listed password 1' });
    const second = browser();
    await accept(second, await invite(byHand, 'grant'), 'by hand password 1');
    await second.auth('sign-in/email', { email: byHand, password: 'by hand password 1' });
    expect([await role(first), await role(second)]).toEqual(['staff', 'staff']);

    setEnv({ STAFF_EMAILS: 'someone@else.test' });
    expect([await role(first), await role(second)]).toEqual(['user', 'staff']);
    expect(await roleChanges(listed)).toEqual([
      ['grant_staff', 'STAFF_EMAILS'],
      ['revoke_staff', 'STAFF_EMAILS'],
    ]);
  });
});

describe('sign-up says nothing about which addresses have accounts', () => {
  it.each([
    ['an address with an account', false],
    ['a listed address with an account', true],
  ])('sign-up with %s answers exactly as with a new one, and mails the owner a note', async (_, listed) => {
    const owned = email();
    if (listed) setEnv({ STAFF_EMAILS: owned });
    await signUp(browser(), { email: owned, password: 'owner password 4', name: 'Owner' });

    const answer = async (address: string) => {
      const { result, links } = await mailedLinks(() =>
        browser().auth('sign-up/email', { email: address, password: 'attacker password 4', name: 'Eve' }),
      );
      const body = await result.json();
      return {
        status: result.status,
        cookies: result.headers.getSetCookie(),
        body: {
          ...body,
          user: { ...body.user, id: typeof body.user.id, createdAt: typeof body.user.createdAt, updatedAt: typeof body.user.updatedAt },
        },
        mailed: links,
      };
    };
    const fresh = email();
    const [taken, open] = [await answer(owned), await answer(fresh)];
    expect(taken.status).toBe(200);
    expect({ ...taken, body: { ...taken.body, user: { ...taken.body.user, email: 'x' } }, mailed: undefined }).toEqual({
      ...open,
      body: { ...open.body, user: { ...open.body.user, email: 'x' } },
      mailed: undefined,
    });
    expect(taken.cookies).toEqual([]);
    expect(open.mailed.map((mail) => mail.to)).toEqual([fresh]);
    expect(taken.mailed.map((mail) => mail.to)).toEqual([owned]);
    expect(taken.mailed[0].link).toMatch(/\/forgot-password$/u);
    // Nothing changed for the owner: one account, the same password.
    expect(await accounts(owned)).toBe(1);
    expect((await browser().auth('sign-in/email', { email: owned, password: 'owner password 4' })).status).toBe(200);
    expect((await browser().auth('sign-in/email', { email: owned, password: 'attacker password 4' })).status).toBe(401);
  });
});

describe('account mails a signed-out caller sets off are limited', () => {
  afterEach(() => setEnv({ ACCOUNT_MAILS_PER_ADDRESS: undefined, ACCOUNT_MAILS_PER_CLIENT: undefined }));

  const resend = (address: string, client: string) =>
    mailedLinks(() => browser().auth('send-verification-email', { email: address }, { [CLIENT_ADDRESS_HEADER]: client }));

  it('verification links sent again: per address mailed and per client address, then 429 with Retry-After', async () => {
    setEnv({ ACCOUNT_MAILS_PER_ADDRESS: '2', ACCOUNT_MAILS_PER_CLIENT: '3' });
    const [target, other, third] = [email(), email(), email()];
    for (const address of [target, other, third])
      await mailedLinks(() => browser().auth('sign-up/email', { email: address, password: 'unverified 1', name: 'U' }));
    const client = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    const elsewhere = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;

    for (let i = 0; i < 2; i++) expect((await resend(target, client)).links.map((mail) => mail.to)).toEqual([target]);
    const perAddress = await resend(target, elsewhere); // another client: the address is spent all the same
    expect(perAddress.result.status).toBe(429);
    expect(Number(perAddress.result.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await perAddress.result.json()).error.code).toBe('rate_limited');
    expect(perAddress.links).toEqual([]);

    // The client's third goes out; its fourth is refused whatever the address.
    expect((await resend(other, client)).links.map((mail) => mail.to)).toEqual([other]);
    const perClient = await resend(third, client);
    expect(perClient.result.status).toBe(429);
    expect(Number(perClient.result.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(perClient.links).toEqual([]);
    expect((await resend(third, elsewhere)).result.status).toBe(200);
  });

  it('notes to an address that already has an account stop at the same limit, answering the sign-up as before', async () => {
    setEnv({ ACCOUNT_MAILS_PER_ADDRESS: '1' });
    const owned = email();
    await signUp(browser(), { email: owned, password: 'owner password 5', name: 'Owner' });
    const attempt = () => mailedLinks(() => browser().auth('sign-up/email', { email: owned, password: 'flooding 1', name: 'Eve' }));
    const [first, second] = [await attempt(), await attempt()];
    expect([first.result.status, second.result.status]).toEqual([200, 200]);
    expect(first.links.map((mail) => mail.to)).toEqual([owned]);
    expect(second.links).toEqual([]);
  });
});
