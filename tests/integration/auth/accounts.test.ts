import { describe, expect, it } from 'vitest';
import { POST as createConversation, GET as listConversations } from '@/app/api/conversations/route';
import { getSql } from '@/db/client';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { changeRole } from '@/lib/roles';
import { requireStaff, requireUser, requireUserOrStartGuest } from '@/lib/session';
import { answered } from '@/tests/support/answered';
import { setEnv } from '@/tests/support/app';
import { browser, email, signUp } from '@/tests/support/auth';

describe('accounts', () => {
  it('a guest who signs up keeps their conversations; signing in elsewhere reaches them; signed out is nobody until a write', async () => {
    const b = browser();
    const created = b.keep(await createConversation(b.request('/api/conversations', { body: { title: 'Plans for the garden' } })));
    expect(created.status).toBe(201);
    const guest = await requireUser(b.request('/'));
    expect(guest.kind).toBe('guest');
    const guestCookie = b.jar.get('better-auth.session_token')!;
    const address = email();
    // The session starts when the mailed link is opened in this browser.
    const signup = await signUp(b, { email: address, password: 'correct horse 42', name: 'Ada' });
    expect(signup.status).toBe(200);

    const member = await requireUser(b.request('/'));
    expect(member.id).toBe(guest.id);
    // A new session for the member; the guest's session is gone with its anonymous account.
    expect(b.jar.get('better-auth.session_token')).not.toBe(guestCookie);
    const old = browser();
    old.jar.set('better-auth.session_token', guestCookie);
    expect(await (await old.auth('get-session')).json()).toBeNull();
    expect(member.kind).toBe('member');
    expect(member.email).toBe(address);

    const laptop = browser();
    expect((await laptop.auth('sign-in/email', { email: address, password: 'wrong password!' })).status).toBe(401);
    expect((await laptop.auth('sign-in/email', { email: address, password: 'correct horse 42' })).status).toBe(200);
    const titles = (await (await listConversations(laptop.request('/api/conversations'))).json()).conversations.map(
      (c: { title: string }) => c.title,
    );
    expect(titles).toEqual(['Plans for the garden']);

    expect((await b.auth('sign-out', {})).status).toBe(200);
    await expect(requireUser(b.request('/')).catch(answered)).resolves.toMatchObject({ status: 401 });
    const after = await requireUserOrStartGuest(b.request('/api/conversations', { method: 'POST' }));
    expect(after.id).not.toBe(member.id); // signed out, a write makes a new guest
    expect(after.kind).toBe('guest');
  });

  it('passwords are hashed by the library, never stored in clear', async () => {
    const b = browser();
    const address = email();
    await b.auth('sign-up/email', { email: address, password: 'a long secret phrase', name: 'Bo' });
    const [row] = await getSql()`select a.password from auth_accounts a join auth_users u on u.id = a.user_id where u.email = ${address}`;
    expect(row.password).not.toContain('a long secret phrase');
    expect(row.password.length).toBeGreaterThan(20);
  });

  it('a role changed by hand holds until changed back; users get 403 on staff routes, signed-out callers 401', async () => {
    const address = email();
    const member = browser();
    await signUp(member, { email: address, password: 'hand granted 1', name: 'Hand' });
    expect(await changeRole({ email: address.toUpperCase() }, 'staff', 'grant')).toMatchObject({ role: 'staff', staffVia: 'grant' });
    expect((await requireStaff(member.request('/'))).role).toBe('staff');
    await changeRole({ email: address }, 'user', 'grant');
    await expect(requireStaff(member.request('/')).catch(answered)).resolves.toMatchObject({ status: 403 });
    expect(await changeRole({ email: 'nobody-here@example.test' }, 'staff', 'grant')).toBeUndefined();
    await expect(requireStaff(browser().request('/')).catch(answered)).resolves.toMatchObject({ status: 401 });
  });

  it('guest creation is bounded per client address and hour, and a session never makes a second guest', async () => {
    setEnv({ GUESTS_PER_ADDRESS_PER_HOUR: '2' });
    try {
      const from = { [CLIENT_ADDRESS_HEADER]: `203.0.113.${Math.floor(Math.random() * 200) + 1}` };
      const mint = () => requireUserOrStartGuest(browser().request('/api/conversations', { method: 'POST', headers: from }));
      await mint();
      await mint();
      await expect(mint().catch(answered)).resolves.toMatchObject({
        status: 429,
        code: 'too_many_guests',
        headers: { 'retry-after': '3600' },
      });
      // better-auth's own route for it is not served: guests start only at a first write.
      expect((await browser().auth('sign-in/anonymous', {})).status).toBe(404);
      // A browser with a session is not a new guest: still served, from that address too.
      const known = browser();
      const started = await known.asGuest();
      expect((await requireUserOrStartGuest(known.request('/api/conversations', { method: 'POST', headers: from }))).id).toBe(started.id);
      expect((await requireUserOrStartGuest(known.request('/api/conversations', { method: 'POST', headers: from }))).id).toBe(started.id);
    } finally {
      setEnv({ GUESTS_PER_ADDRESS_PER_HOUR: '1000000' });
    }
  });
});
