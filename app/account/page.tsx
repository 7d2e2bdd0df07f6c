import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ChangePasswordForm, ResendVerification } from '@/components/password-forms';
import { getAuth } from '@/lib/auth';

export const metadata: Metadata = { title: 'Your account' };

/** A member's account: their email, whether it is verified, and change password. */
export default async function AccountPage() {
  const session = await getAuth().api.getSession({ headers: await headers() });
  if (!session || session.user.isAnonymous) redirect('/login?next=/account');
  const { email, emailVerified } = session.user;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-canvas px-4 py-10">
      <section
        data-testid="account-details"
        className="w-full max-w-sm space-y-2 rounded-2xl border border-line bg-surface p-6 text-sm shadow-sm"
      >
        <h1 className="text-lg font-semibold">Your account</h1>
        <p>
          <span className="text-muted">Email: </span>
          <span data-testid="account-email">{email}</span>{' '}
          <span data-testid="account-verified" className="rounded-full bg-subtle px-2 py-0.5 text-[11px]">
            {emailVerified ? 'verified' : 'not verified'}
          </span>
        </p>
        {emailVerified ? null : (
          <>
            <p className="text-muted">Follow the link we mailed you at sign-up to verify this address.</p>
            <ResendVerification email={email} />
          </>
        )}
        <Link href="/" className="block pt-2 hover:underline">
          Back to the chat
        </Link>
      </section>
      <ChangePasswordForm />
    </main>
  );
}
