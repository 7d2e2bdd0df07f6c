import type { Metadata } from 'next';
import { ForgotPasswordForm } from '@/components/password-forms';

export const metadata: Metadata = { title: 'Forgot password' };

export default function ForgotPasswordPage() {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-canvas px-4">
      <ForgotPasswordForm />
    </main>
  );
}
