'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { type ReactNode, useEffect } from 'react';
import { LensIcon } from '../icons';

const NAV = [
  {
    href: '/staff',
    label: 'Users',
    match: (path: string) => path === '/staff' || path.startsWith('/staff/users') || path.startsWith('/staff/conversations'),
  },
  { href: '/staff/jobs', label: 'Jobs', match: (path: string) => path.startsWith('/staff/jobs') },
  { href: '/staff/audit', label: 'Audit log', match: (path: string) => path.startsWith('/staff/audit') },
] as const;

/** The staff console's frame: a bar with the console's sections and who is signed in, then the page. */
export function StaffShell({ staff, children }: { staff: { email: string | null }; children: ReactNode }) {
  const pathname = usePathname() ?? '/staff';

  // Marks the page interactive (end-to-end tests wait for it before clicking).
  useEffect(() => {
    document.body.dataset.hydrated = 'true';
  }, []);

  return (
    <div className="min-h-dvh bg-canvas" data-testid="staff-console">
      <a
        href="#staff-main"
        className="sr-only z-50 rounded-md bg-surface px-3 py-2 text-sm focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to the content
      </a>
      <header className="sticky top-0 z-30 border-b border-line bg-surface/90 backdrop-blur">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 sm:px-6">
          <Link href="/staff" className="flex h-14 items-center gap-2 rounded-md text-[15px] font-semibold tracking-tight">
            <span className="grid size-7 place-items-center rounded-lg bg-accent text-on-accent">
              <LensIcon width={16} height={16} />
            </span>
            memlens
            <span className="rounded-full border border-warn/30 bg-warn-soft px-2 py-0.5 text-[11px] font-medium text-warn">
              Staff console
            </span>
          </Link>
          <div className="ml-auto flex min-w-0 items-center gap-3 text-sm sm:order-last">
            <span className="hidden max-w-56 truncate text-muted sm:inline" title={staff.email ?? undefined} data-testid="staff-email">
              {staff.email}
            </span>
            <Link href="/" className="rounded-md px-2 py-1 font-medium text-accent hover:bg-subtle">
              Back to the app
            </Link>
          </div>
          <nav aria-label="Staff console" className="-mx-1 flex w-full gap-1 overflow-x-auto pb-2 sm:w-auto sm:pb-0">
            {NAV.map((item) => {
              const active = item.match(pathname);
              return (
                <Link
                  key={item.href}
                  href={item.href}
                  data-testid={`staff-nav-${item.label.toLowerCase().replace(/\s+/gu, '-')}`}
                  aria-current={active ? 'page' : undefined}
                  className={`rounded-lg px-3 py-1.5 text-sm font-medium whitespace-nowrap ${
                    active ? 'bg-accent-soft text-accent' : 'text-muted hover:bg-subtle hover:text-fg'
                  }`}
                >
                  {item.label}
                </Link>
              );
            })}
          </nav>
        </div>
      </header>
      <main id="staff-main" tabIndex={-1} className="mx-auto w-full max-w-7xl px-4 py-6 outline-none sm:px-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}
