'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useState } from 'react';
import { sameOriginPath } from '@/lib/shared/safe-next';
import { authClient } from './auth-client';

/** Sign in or sign up with email and password (better-auth does the work; we only show it). */
export function AuthForm({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Sign-up signs nobody in: the mailed link does. Set once the form has been sent, to the address given.
  const [sentTo, setSentTo] = useState<string | null>(null);
  // A sign-in refused until the address is verified: its link can be sent again.
  const [unverified, setUnverified] = useState<string | null>(null);
  const signUp = mode === 'sign-up';
  // Where to go once signed in: `?next=/staff/…` (a path of this site only), else the chat.
  const [next, setNext] = useState<string | null>(null);
  useEffect(() => {
    setNext(sameOriginPath(new URLSearchParams(window.location.search).get('next'), window.location.origin));
    // Marks the page interactive (end-to-end tests wait for it before typing).
    document.body.dataset.hydrated = 'true';
  }, []);
  const carry = next ? `?next=${encodeURIComponent(next)}` : '';

  // A submit handler, not a form action: React resets a form after its action runs, which would wipe
  // what was typed when the server says no. Only a refused sign-in clears its password, as sign-in forms do;
  // sign-up keeps everything, since the fix is usually elsewhere (a password too short).
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    setBusy(true);
    setError(null);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const callbackURL = next ?? '/';
    const result = signUp
      ? await authClient.signUp.email({ email, password, name: String(form.get('name') ?? '').trim() || email.split('@')[0], callbackURL })
      : await authClient.signIn.email({ email, password, callbackURL });
    setBusy(false);
    if (result.error) {
      setError(result.error.message ?? (signUp ? 'Could not create the account.' : 'Wrong email or password.'));
      setUnverified(!signUp && result.error.code === 'EMAIL_NOT_VERIFIED' ? email : null);
      const passwordInput = element.elements.namedItem('password');
      if (!signUp && passwordInput instanceof HTMLInputElement) {
        passwordInput.value = '';
        passwordInput.focus();
      }
      return;
    }
    if (signUp) return setSentTo(email);
    await queryClient.invalidateQueries();
    router.push(next ?? '/');
    router.refresh();
  }

  async function resend() {
    if (!unverified) return;
    setBusy(true);
    const result = await authClient.sendVerificationEmail({ email: unverified, callbackURL: next ?? '/' });
    setBusy(false);
    setError(result.error ? (result.error.message ?? 'Could not send the link.') : null);
    if (!result.error) setSentTo(unverified);
  }

  if (sentTo) {
    return (
      <main className="flex min-h-dvh items-center justify-center bg-canvas px-4">
        <div data-testid="check-mail" className="w-full max-w-sm space-y-3 rounded-2xl border border-line bg-surface p-6 shadow-sm">
          <h1 className="text-lg font-semibold">Check your mail</h1>
          <p className="text-sm text-muted">
            We sent a link to {sentTo}. Open it to verify the address and sign in. If the address already has an account, the mail says how
            to sign in instead.
          </p>
        </div>
      </main>
    );
  }

  return (
    <main className="flex min-h-dvh items-center justify-center bg-canvas px-4">
      <form
        onSubmit={submit}
        data-testid={signUp ? 'sign-up-form' : 'sign-in-form'}
        className="w-full max-w-sm space-y-4 rounded-2xl border border-line bg-surface p-6 shadow-sm"
      >
        <div>
          <h1 className="text-lg font-semibold">{signUp ? 'Create your account' : 'Sign in to memlens'}</h1>
          <p className="mt-1 text-sm text-muted">
            {signUp ? 'Your conversations and memory from this browser come with you.' : 'Your conversations and memory, on any device.'}
          </p>
        </div>
        {signUp ? (
          <label className="block text-sm">
            <span className="mb-1 block text-muted">Name</span>
            <input name="name" autoComplete="name" className="w-full rounded-lg border border-line bg-canvas px-3 py-2" />
          </label>
        ) : null}
        <label className="block text-sm">
          <span className="mb-1 block text-muted">Email</span>
          <input
            name="email"
            type="email"
            required
            autoComplete="email"
            className="w-full rounded-lg border border-line bg-canvas px-3 py-2"
          />
        </label>
        <label className="block text-sm">
          <span className="mb-1 block text-muted">Password</span>
          <input
            name="password"
            type="password"
            required
            minLength={8}
            autoComplete={signUp ? 'new-password' : 'current-password'}
            className="w-full rounded-lg border border-line bg-canvas px-3 py-2"
          />
          {signUp ? (
            <span className="mt-1 block text-xs text-muted">At least 8 characters.</span>
          ) : (
            <Link href="/forgot-password" data-testid="forgot-password-link" className="mt-1 block text-xs text-accent hover:underline">
              Forgot your password?
            </Link>
          )}
        </label>
        {error ? (
          <p role="alert" data-testid="auth-error" className="rounded-lg bg-danger-soft px-3 py-2 text-sm text-danger">
            {error}
          </p>
        ) : null}
        {unverified ? (
          <button
            type="button"
            onClick={resend}
            disabled={busy}
            data-testid="resend-verification"
            className="text-sm text-accent hover:underline"
          >
            Send the verification link again
          </button>
        ) : null}
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-lg bg-accent px-3 py-2 text-sm font-medium text-on-accent hover:bg-accent-hover disabled:opacity-60"
        >
          {busy ? 'One moment…' : signUp ? 'Create account' : 'Sign in'}
        </button>
        <p className="text-center text-sm text-muted">
          {signUp ? (
            <>
              Have an account?{' '}
              <Link href={`/login${carry}`} className="font-medium text-accent hover:underline">
                Sign in
              </Link>
            </>
          ) : (
            <>
              New here?{' '}
              <Link href={`/signup${carry}`} className="font-medium text-accent hover:underline">
                Create an account
              </Link>
            </>
          )}
          {' · '}
          <Link href="/" className="hover:underline">
            Back to the chat
          </Link>
        </p>
      </form>
    </main>
  );
}
