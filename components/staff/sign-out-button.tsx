'use client';

import { type ReactNode, useState } from 'react';
import { signInAgainPath, useSignOut } from '../session-end';

/** Signs out, then opens the sign-in page (which comes back here). */
export function SignOutButton({ className, children }: { className?: string; children: ReactNode }) {
  const signOut = useSignOut();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      className={`${className ?? ''} disabled:opacity-60`}
      onClick={async () => {
        setBusy(true);
        await signOut(signInAgainPath());
      }}
    >
      {busy ? 'Signing out…' : children}
    </button>
  );
}
