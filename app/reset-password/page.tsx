import type { Metadata } from 'next';
import { ResetPasswordForm } from '@/components/password-forms';

export const metadata: Metadata = { title: 'Reset password' };

const one = (value: string | string[] | undefined) => (typeof value === 'string' && value ? value : null);

/** Where a mailed reset link lands (better-auth checks the token and redirects here with it). */
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[]; error?: string | string[] }>;
}) {
  const { token, error } = await searchParams;
  return (
    <main className="flex min-h-dvh items-center justify-center bg-canvas px-4">
      <ResetPasswordForm token={one(token)} error={one(error)} />
    </main>
  );
}
