import type { Metadata } from 'next';
import Link from 'next/link';
import { SignInLink } from '@/components/staff/sign-in-link';

export const metadata: Metadata = { title: 'Sign in required' };

/** 401: nobody is signed in (rendered by unauthorized() from next/navigation). */
export default function Unauthorized() {
  return (
    <main className="grid min-h-dvh place-items-center bg-canvas px-6" data-testid="unauthorized-page">
      <div className="max-w-md text-center">
        <p className="text-sm font-medium text-accent">401 · Sign in required</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Sign in to continue</h1>
        <p className="mt-3 text-[15px] leading-7 text-muted">
          This page needs a signed-in account: the staff console is for memlens staff, who sign in with their work email.
        </p>
        <div className="mt-6 flex flex-wrap items-center justify-center gap-3">
          <SignInLink className="inline-flex rounded-xl bg-accent px-4 py-2 text-sm font-medium text-on-accent hover:bg-accent-hover">
            Sign in
          </SignInLink>
          <Link href="/" className="inline-flex rounded-xl border border-line bg-surface px-4 py-2 text-sm font-medium hover:bg-subtle">
            Back to the chat
          </Link>
        </div>
      </div>
    </main>
  );
}
