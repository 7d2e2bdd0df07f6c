'use client';

import Link from 'next/link';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { authClient } from './auth-client';

/**
 * Forgot password, reset password and change password: better-auth does the work (the reset link
 * goes out through lib/mail.ts); these only ask and show what happened.
 */

const input = 'w-full rounded-lg border border-line bg-canvas px-3 py-2';
const button = 'w-full rounded-lg bg-accent px-3 py-2 text-sm font-medium text-on-accent hover:bg-accent-hover disabled:opacity-60';

type Outcome = { ok: boolean; message: string } | null;

/** Runs one better-auth call for a form, keeping its busy state and outcome. */
function useSubmit(
  run: (form: FormData) => Promise<{ error: { message?: string } | null }>,
  success: string | ((form: FormData) => string),
  failure: string,
) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  useEffect(() => {
    // Marks the page interactive (end-to-end tests wait for it before typing).
    document.body.dataset.hydrated = 'true';
  }, []);
  // A submit handler, not a form action: React resets a form after its action runs, which would wipe
  // what was typed when the server says no. A refusal clears only the passwords; success clears the form.
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    setBusy(true);
    setOutcome(null);
    const form = new FormData(element);
    const { error } = await run(form);
    setBusy(false);
    const said = typeof success === 'string' ? success : success(form);
    setOutcome(error ? { ok: false, message: error.message ?? failure } : { ok: true, message: said });
    if (!error) element.reset();
    else for (const input of element.querySelectorAll<HTMLInputElement>('input[type="password"]')) input.value = '';
  }
  return { busy, outcome, submit };
}

function Card({
  title,
  lead,
  testId,
  submit,
  children,
}: {
  title: string;
  lead: string;
  testId: string;
  submit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={submit}
      data-testid={testId}
      className="w-full max-w-sm space-y-4 rounded-2xl border border-line bg-surface p-6 shadow-sm"
    >
      <div>
        <h1 className="text-lg font-semibold">{title}</h1>
        <p className="mt-1 text-sm text-muted">{lead}</p>
      </div>
      {children}
    </form>
  );
}

function Said({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <p
      role={outcome.ok ? 'status' : 'alert'}
      data-testid={outcome.ok ? 'form-done' : 'form-error'}
      className={`rounded-lg px-3 py-2 text-sm ${outcome.ok ? 'bg-accent-soft text-accent' : 'bg-danger-soft text-danger'}`}
    >
      {outcome.message}
    </p>
  );
}

function PasswordField({ name, label, autoComplete }: { name: string; label: string; autoComplete: string }) {
  return (
    <label className="block text-sm">
      <span className="mb-1 block text-muted">{label}</span>
      <input name={name} type="password" required minLength={8} autoComplete={autoComplete} className={input} />
    </label>
  );
}

export function ForgotPasswordForm() {
  const { busy, outcome, submit } = useSubmit(
    (form) => authClient.requestPasswordReset({ email: String(form.get('email') ?? '').trim(), redirectTo: '/reset-password' }),
    'If an account has this email, a link to reset its password is on its way.',
    'Could not send the reset link.',
  );
  return (
    <Card title="Forgot your password?" lead="We mail a link that lets you choose a new one." testId="forgot-password-form" submit={submit}>
      <label className="block text-sm">
        <span className="mb-1 block text-muted">Email</span>
        <input name="email" type="email" required autoComplete="email" className={input} />
      </label>
      <Said outcome={outcome} />
      <button type="submit" disabled={busy} className={button}>
        {busy ? 'One moment…' : 'Send the link'}
      </button>
      <p className="text-center text-sm text-muted">
        <Link href="/login" className="font-medium text-accent hover:underline">
          Back to sign in
        </Link>
      </p>
    </Card>
  );
}

/** The page the mailed link lands on, with `?token=` (or `?error=INVALID_TOKEN` when it was spent or expired). */
export function ResetPasswordForm({ token, error }: { token: string | null; error: string | null }) {
  const { busy, outcome, submit } = useSubmit(
    (form) => authClient.resetPassword({ token: token ?? '', newPassword: String(form.get('password') ?? '') }),
    'Your password is changed, and every session that was signed in has ended. Sign in with the new one.',
    'Could not reset the password.',
  );
  if (!token || error) {
    return (
      <Card
        title="This link does not work"
        lead="It was used already, has expired, or was cut short. Ask for a new one."
        testId="reset-password-form"
        submit={async (event) => event.preventDefault()}
      >
        <Link href="/forgot-password" className="block text-center text-sm font-medium text-accent hover:underline">
          Send a new link
        </Link>
      </Card>
    );
  }
  return (
    <Card title="Choose a new password" lead="At least 8 characters." testId="reset-password-form" submit={submit}>
      <PasswordField name="password" label="New password" autoComplete="new-password" />
      <Said outcome={outcome} />
      <button type="submit" disabled={busy || outcome?.ok} className={button}>
        {busy ? 'One moment…' : 'Set the password'}
      </button>
      {outcome?.ok ? (
        <Link href="/login" className="block text-center text-sm font-medium text-accent hover:underline">
          Sign in
        </Link>
      ) : null}
    </Card>
  );
}

export function ChangePasswordForm() {
  const { busy, outcome, submit } = useSubmit(
    (form) =>
      authClient.changePassword({
        currentPassword: String(form.get('current') ?? ''),
        newPassword: String(form.get('password') ?? ''),
        revokeOtherSessions: form.get('revoke') === 'on',
      }),
    (form) => (form.get('revoke') === 'on' ? 'Password changed. Your other sessions have been signed out.' : 'Password changed.'),
    'Could not change the password.',
  );
  return (
    <Card title="Change password" lead="At least 8 characters." testId="change-password-form" submit={submit}>
      <PasswordField name="current" label="Current password" autoComplete="current-password" />
      <PasswordField name="password" label="New password" autoComplete="new-password" />
      <label className="flex items-start gap-2 text-sm">
        {/* On by default: whoever knew the old password should not stay signed in elsewhere. */}
        <input name="revoke" type="checkbox" defaultChecked data-testid="revoke-other-sessions" className="mt-1" />
        <span>Sign out every other browser signed in to this account</span>
      </label>
      <Said outcome={outcome} />
      <button type="submit" disabled={busy} className={button}>
        {busy ? 'One moment…' : 'Change password'}
      </button>
    </Card>
  );
}

/** Mails the verification link again (the first went out at sign-up). */
export function ResendVerification({ email }: { email: string }) {
  const [sent, setSent] = useState<Outcome>(null);
  return (
    <span className="block space-y-2">
      <button
        type="button"
        data-testid="resend-verification"
        className="font-medium text-accent hover:underline"
        onClick={async () => {
          const { error } = await authClient.sendVerificationEmail({ email, callbackURL: '/account' });
          setSent(
            error
              ? { ok: false, message: error.message ?? 'Could not send the link.' }
              : { ok: true, message: 'Sent: open the link in the mail.' },
          );
        }}
      >
        Send the verification link again
      </button>
      <Said outcome={sent} />
    </span>
  );
}
