'use client';

import { useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter } from 'next/navigation';
import { type ReactNode, useState } from 'react';
import { authClient } from '../auth-client';

/** Signs out, then opens the sign-in page (which comes back here). */
export function SignOutButton({ className, children }: { className?: string; children: ReactNode }) {
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      className={`${className ?? ''} disabled:opacity-60`}
      onClick={async () => {
        setBusy(true);
        await authClient.signOut();
        queryClient.clear();
        router.push(pathname && pathname !== '/' ? `/login?next=${encodeURIComponent(pathname)}` : '/login');
        router.refresh();
      }}
    >
      {busy ? 'Signing out…' : children}
    </button>
  );
}
