import type { Metadata } from 'next';
import Link from 'next/link';
import { SignOutButton } from '@/components/staff/sign-out-button';

export const metadata: Metadata = { title: 'Staff only' };

/** 403: signed in, but not as staff (rendered by forbidden() from next/navigation). */
export default function Forbidden() {
  return (
    <main className="grid min-h-dvh place-items-center bg-canvas px-6" data-testid="forbidden-page">
      <div className="max-w-lg text-center">
        <p className="text-sm font-medium text-accent">403 · Staff only</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">This page is for memlens staff</h1>
        <p className="mt-3 text-[15px] leading-7 text-muted">
          The staff console lets support staff read any user&apos;s conversations and memory, so it is open to staff accounts only. You are
          signed in with an account that is not one.
        </p>
        <p className="mt-3 text-sm leading-6 text-muted">
          If you work on memlens, ask an administrator to make your account staff, then sign in again.
        </p>
        <div className="mt-6 flex flex-wrap items-center justify-center gap-3">
          <Link href="/" className="inline-flex rounded-xl bg-accent px-4 py-2 text-sm font-medium text-on-accent hover:bg-accent-hover">
            Back to your conversations
          </Link>
          <SignOutButton className="inline-flex rounded-xl border border-line bg-surface px-4 py-2 text-sm font-medium hover:bg-subtle">
            Sign in with another account
          </SignOutButton>
        </div>
      </div>
    </main>
  );
}
