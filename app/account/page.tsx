import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AccountData } from '@/components/account-data';
import { ChangePasswordForm, ResendVerification } from '@/components/password-forms';
import { getAuth } from '@/lib/auth';
import { accountContents, currentUser } from '@/lib/services/account';

export const metadata: Metadata = { title: 'Your account' };

const card = 'w-full max-w-sm space-y-2 rounded-2xl border border-line bg-surface p-6 text-sm shadow-sm';

/**
 * A member's account: their email, whether it is verified, change password, export and delete. A guest
 * sees what applies to them: export and delete what this browser keeps, and how to keep it (sign up).
 */
export default async function AccountPage() {
  const user = await currentUser();
  // Nothing is kept for a browser without a session: there is no account to show.
  if (!user) redirect('/login?next=/account');
  const contents = await accountContents(user.id);
  if (user.kind === 'guest') {
    return (
      <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-canvas px-4 py-10">
        <section data-testid="account-details" data-kind="guest" className={card}>
          <h1 className="text-lg font-semibold">You are a guest</h1>
          <p className="text-muted">Your chats and memory are kept for this browser only, with no password to change.</p>
          <p>
            <Link href="/signup?next=/account" className="font-medium text-accent hover:underline">
              Create an account
            </Link>{' '}
            to keep them and reach them from any device.
          </p>
          <Link href="/" className="block pt-2 hover:underline">
            Back to the chat
          </Link>
        </section>
        <AccountData guest contents={contents} />
      </main>
    );
  }
  const session = await getAuth().api.getSession({ headers: await headers() });
  const emailVerified = session?.user.emailVerified ?? false;
  const email = user.email ?? '';
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-canvas px-4 py-10">
      <section data-testid="account-details" data-kind="member" className={card}>
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
      <AccountData guest={false} contents={contents} />
    </main>
  );
}
