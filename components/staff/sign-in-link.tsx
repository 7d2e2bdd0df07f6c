'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';

/** A link to /login that comes back to this page once signed in. */
export function SignInLink({ className, children }: { className?: string; children: ReactNode }) {
  const pathname = usePathname();
  const next = pathname && pathname !== '/' && pathname !== '/login' ? `?next=${encodeURIComponent(pathname)}` : '';
  return (
    <Link href={`/login${next}`} data-testid="sign-in-link" className={className}>
      {children}
    </Link>
  );
}
