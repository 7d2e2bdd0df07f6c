import { describe, expect, it } from 'vitest';
import { getSql } from '@/db/client';
import { setEnv } from '@/tests/support/app';
import { browser, email, mailedLinks, signUp } from '@/tests/support/auth';

const accountsWith = async (address: string) => (await getSql()`select count(*)::int as n from auth_users where email = ${address}`)[0].n;

describe('sign-up checks the profile it stores', () => {
  it('a name over 100 characters is a clear 400 and creates nothing', async () => {
    const address = email();
    const response = await browser().auth('sign-up/email', { email: address, password: 'a fine password 1', name: 'x'.repeat(200_000) });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error).toMatchObject({ code: 'name_too_long' });
    expect(body.error.message).toMatch(/at most 100/u);
    expect(await accountsWith(address)).toBe(0);
  });

  it('an email longer than an address can be (254 characters) is a clear 400 and creates nothing', async () => {
    // Random letters: a repeated one compresses and hides how large an index entry really is.
    const local = Array.from({ length: 64 }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('');
    const address = `${local}@${Array.from({ length: 40 }, () => local)
      .join('.')
      .slice(0, 3000)}.test`;
    const response = await browser().auth('sign-up/email', { email: address, password: 'a fine password 1', name: 'Long' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'email_too_long' });
    expect(await accountsWith(address)).toBe(0);
  });

  it('100 characters, emoji counted as one each, are accepted', async () => {
    const address = email();
    const { result } = await mailedLinks(() =>
      browser().auth('sign-up/email', { email: address, password: 'a fine password 1', name: '🙂'.repeat(100) }),
    );
    expect(result.status).toBe(200);
  });

  it.each(['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<script>alert(1)</script>', '//evil.example/x.png', 'not a url'])(
    'an image %j is a 400 and creates nothing',
    async (image) => {
      const address = email();
      const response = await browser().auth('sign-up/email', { email: address, password: 'a fine password 1', name: 'Img', image });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatchObject({ code: 'invalid_image' });
      expect(await accountsWith(address)).toBe(0);
    },
  );

  it('an https image is kept; changing it later to javascript: is refused', async () => {
    const address = email();
    const b = browser();
    const result = await signUp(b, { email: address, password: 'a fine password 1', name: 'Img', image: 'https://images.example/a.png' });
    expect(result.status).toBe(200);
    expect((await b.auth('update-user', { image: 'javascript:alert(document.cookie)' })).status).toBe(400);
    expect((await b.auth('update-user', { name: 'y'.repeat(101) })).status).toBe(400);
    const [row] = await getSql()`select image, name from auth_users where email = ${address}`;
    expect(row).toEqual({ image: 'https://images.example/a.png', name: 'Img' });
  });
});

describe('failed sign-ins are limited per account', () => {
  it('past the limit an account answers 429 with Retry-After, from any address, and other accounts still sign in', async () => {
    setEnv({ SIGN_IN_FAILURES_PER_ACCOUNT: '3', SIGN_IN_FAILURE_WINDOW_SECONDS: '600' });
    try {
      const target = email();
      const bystander = email();
      await signUp(browser(), { email: target, password: 'the right one 1', name: 'Target' });
      await signUp(browser(), { email: bystander, password: 'the right one 2', name: 'Bystander' });
      const from = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}` });
      for (let i = 1; i <= 3; i++) {
        expect((await browser().auth('sign-in/email', { email: target, password: `wrong guess ${i}` }, from(i))).status).toBe(401);
      }
      for (const password of ['wrong guess 4', 'the right one 1']) {
        const refused = await browser().auth('sign-in/email', { email: target.toUpperCase(), password }, from(9));
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await refused.json()).error.code).toBe('rate_limited');
      }
      expect((await browser().auth('sign-in/email', { email: bystander, password: 'the right one 2' }, from(9))).status).toBe(200);
    } finally {
      setEnv({ SIGN_IN_FAILURES_PER_ACCOUNT: undefined, SIGN_IN_FAILURE_WINDOW_SECONDS: undefined });
    }
  });

  it('a successful sign-in clears the account’s failures', async () => {
    setEnv({ SIGN_IN_FAILURES_PER_ACCOUNT: '2' });
    try {
      const address = email();
      await signUp(browser(), { email: address, password: 'the right one 3', name: 'Clear' });
      const attempt = (password: string) => browser().auth('sign-in/email', { email: address, password });
      expect((await attempt('wrong once')).status).toBe(401);
      expect((await attempt('the right one 3')).status).toBe(200);
      expect((await attempt('wrong again')).status).toBe(401);
      expect((await attempt('the right one 3')).status).toBe(200);
    } finally {
      setEnv({ SIGN_IN_FAILURES_PER_ACCOUNT: undefined });
    }
  });
});
