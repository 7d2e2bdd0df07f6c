import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { GET as authGet, POST as authPost } from '@/app/api/auth/[...all]/route';
import { POST as createConversation, GET as listConversations } from '@/app/api/conversations/route';
import { GET as me } from '@/app/api/me/route';
import { getSql } from '@/db/client';
import { addFact } from '@/db/facts';
import { EMBEDDING_SIZE } from '@/db/schema';
import { CLIENT_ADDRESS_HEADER } from '@/lib/client-address';
import { requireUser, requireUserOrStartGuest, userFromHeaders } from '@/lib/session';
import { indexTerms } from '@/lib/text/index-terms';
import { proxy } from '@/proxy';
import { answered } from '@/tests/support/answered';
import { setEnv } from '@/tests/support/app';
import { browser, email, mailedLinks, signUp } from '@/tests/support/auth';

const run = crypto.randomUUID().slice(0, 8);
// Each test's visitors come from their own spoofed addresses, so rows made by other files running at once don't count.
const addressOf = (test: string, i: number) => `${test}-${run}-${i}`;
const guestsFrom = async (prefix: string) =>
  (await getSql()`select count(*)::int as n from users where created_from like ${`${prefix}-${run}-%`}`)[0].n;

describe('nothing is made by a read', () => {
  it('100 cookie-less page views, GET /api/me and reads make no user and set no cookie', async () => {
    for (let i = 0; i < 100; i++) {
      const from = { [CLIENT_ADDRESS_HEADER]: addressOf('reads', i) };
      const page = proxy(
        new NextRequest(`http://127.0.0.1:3000/${['', 'memory', 'c/00000000-0000-4000-8000-000000000000'][i % 3]}`, { headers: from }),
      );
      expect(page.headers.get('set-cookie')).toBeNull();
      expect(await userFromHeaders(new Headers(from))).toBeUndefined();
      const answer = await me(new Request('http://127.0.0.1:3000/api/me', { headers: from }));
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect((await answer.json()).user).toEqual({ id: null, kind: 'guest', role: 'user', email: null, name: null });
      expect(await (await listConversations(new Request('http://127.0.0.1:3000/api/conversations', { headers: from }))).json()).toEqual({
        conversations: [],
      });
    }
    expect(await guestsFrom('reads')).toBe(0);
  });

  it('the first write makes the guest and sets its cookie; the next requests are that guest', async () => {
    const b = browser();
    const from = { [CLIENT_ADDRESS_HEADER]: addressOf('write', 0) };
    const created = b.keep(await createConversation(b.request('/api/conversations', { body: { title: 'First' }, headers: from })));
    expect(created.status).toBe(201);
    expect(created.headers.get('set-cookie')).toMatch(/better-auth\.session_token=/u);
    expect(await guestsFrom('write')).toBe(1);
    const listed = await (await listConversations(b.request('/api/conversations'))).json();
    expect(listed.conversations.map((c: { title: string }) => c.title)).toEqual(['First']);
    expect((await (await me(b.request('/api/me'))).json()).user.kind).toBe('guest');
    b.keep(await createConversation(b.request('/api/conversations', { body: { title: 'Second' }, headers: from })));
    expect(await guestsFrom('write')).toBe(1);
  });
});

describe('no cap that locks new visitors out', () => {
  it('many new visitors from spoofed addresses cannot stop the next new visitor', async () => {
    // GUESTS_PER_HOUR was a global cap on new guests; it is gone, whatever the environment says.
    setEnv({ GUESTS_PER_HOUR: '20', GUESTS_PER_ADDRESS_PER_HOUR: '1' });
    try {
      for (let i = 0; i < 40; i++) {
        await requireUserOrStartGuest(
          browser().request('/api/conversations', { method: 'POST', headers: { [CLIENT_ADDRESS_HEADER]: addressOf('flood', i) } }),
        );
      }
      const newcomer = await requireUserOrStartGuest(
        browser().request('/api/conversations', { method: 'POST', headers: { [CLIENT_ADDRESS_HEADER]: addressOf('newcomer', 0) } }),
      );
      expect(newcomer.kind).toBe('guest');
      // Each spoofed address is bounded on its own.
      await expect(
        requireUserOrStartGuest(
          browser().request('/api/conversations', { method: 'POST', headers: { [CLIENT_ADDRESS_HEADER]: addressOf('flood', 3) } }),
        ).catch(answered),
      ).resolves.toMatchObject({ status: 429 });
    } finally {
      setEnv({ GUESTS_PER_HOUR: undefined, GUESTS_PER_ADDRESS_PER_HOUR: '1000000' });
    }
  });
});

const vector = () => Array.from({ length: EMBEDDING_SIZE }, (_, i) => (i === 0 ? 1 : 0));
const fact = (userId: string, slot: string, content: string, validFrom: string) =>
  addFact(
    { userId, conversationId: null, source: null, actor: 'test' },
    {
      slot,
      content,
      value: content.toLowerCase(),
      indexTerms: indexTerms(content),
      embedding: vector(),
      validFrom: new Date(validFrom),
    },
  );

describe('a guest who signs in to an existing account', () => {
  it('is merged into it: conversations and facts move, the newer of two single-valued facts stays current, all audited', async () => {
    const address = email();
    const account = browser();
    await signUp(account, { email: address, password: 'merge password 1', name: 'Ada' });
    const member = await requireUser(account.request('/'));
    account.keep(await createConversation(account.request('/api/conversations', { body: { title: 'Member talk' } })));
    const memberName = await fact(member.id, 'name', 'My name is Ada.', '2024-01-01T00:00:00Z');
    const memberWork = await fact(member.id, 'work', 'I work as a baker.', '2025-06-01T00:00:00Z');

    const b = browser();
    b.keep(await createConversation(b.request('/api/conversations', { body: { title: 'Guest talk' } })));
    const guest = await requireUser(b.request('/'));
    const guestName = await fact(guest.id, 'name', 'Call me Addie.', '2025-01-01T00:00:00Z');
    const guestWork = await fact(guest.id, 'work', 'I work as a nurse.', '2024-03-01T00:00:00Z');
    const guestPet = await fact(guest.id, 'pet', 'I have a dog named Rex.', '2025-02-01T00:00:00Z');
    const guestCookie = b.jar.get('better-auth.session_token')!;

    expect((await b.auth('sign-in/email', { email: address, password: 'merge password 1' })).status).toBe(200);

    // The session rotated: a new token, and the guest's old one opens nothing.
    expect(b.jar.get('better-auth.session_token')).not.toBe(guestCookie);
    const old = await authGet(
      new Request('http://127.0.0.1:3000/api/auth/get-session', { headers: { cookie: `better-auth.session_token=${guestCookie}` } }),
    );
    expect(await old.json()).toBeNull();
    expect((await requireUser(b.request('/'))).id).toBe(member.id);

    const titles = (await (await listConversations(b.request('/api/conversations'))).json()).conversations
      .map((c: { title: string }) => c.title)
      .sort();
    expect(titles).toEqual(['Guest talk', 'Member talk']);
    const rows =
      await getSql()`select id, user_id, status, superseded_by from facts where id in ${getSql()([memberName.id, memberWork.id, guestName.id, guestWork.id, guestPet.id])}`;
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(rows.every((r) => r.user_id === member.id)).toBe(true);
    // name: the guest's is newer, so it is current and the member's is superseded by it.
    expect(byId[guestName.id].status).toBe('active');
    expect(byId[memberName.id]).toMatchObject({ status: 'superseded', superseded_by: guestName.id });
    // work: the member's is newer and stays.
    expect(byId[memberWork.id].status).toBe('active');
    expect(byId[guestWork.id]).toMatchObject({ status: 'superseded', superseded_by: memberWork.id });
    expect(byId[guestPet.id].status).toBe('active');

    const moves = await getSql()`select fact_id from fact_events where event = 'MOVE' and user_id = ${member.id}`;
    expect(moves.map((m) => m.fact_id).sort()).toEqual([guestName.id, guestWork.id, guestPet.id].sort());
    const [entry] = await getSql()`select action, after from audit_log where target_user_id = ${member.id} and action = 'merge_guest'`;
    expect(entry.after).toMatchObject({ conversations: 1, facts: 3 });
    expect(await getSql()`select id from users where id = ${guest.id}`).toHaveLength(0);
  });
});

describe('session cookies over https', () => {
  it('are __Host- prefixed, Secure, Path=/ and without Domain when APP_URL is https', async () => {
    setEnv({ APP_URL: 'https://memlens.example' });
    try {
      const { links } = await mailedLinks(() =>
        authPost(
          new Request('https://memlens.example/api/auth/sign-up/email', {
            method: 'POST',
            headers: { origin: 'https://memlens.example', 'content-type': 'application/json' },
            body: JSON.stringify({ email: email(), password: 'https password 1', name: 'Tls' }),
          }),
        ),
      );
      // The session starts where the mailed link is opened.
      const response = await authGet(new Request(links[0].link));
      expect(response.status).toBe(302);
      const session = response.headers.getSetCookie().find((line) => line.includes('session_token='))!;
      expect(session).toMatch(/^__Host-better-auth\.session_token=/u);
      expect(session).toMatch(/; Secure/iu);
      expect(session).toMatch(/; Path=\//iu);
      expect(session).not.toMatch(/Domain=/iu);
    } finally {
      setEnv({ APP_URL: undefined });
    }
  });
});
