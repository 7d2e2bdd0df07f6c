'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { authClient } from './auth-client';

type Me = { user: { id: string | null; kind: 'guest' | 'member'; role: 'user' | 'staff'; email: string | null; name: string | null } };

const meKey = ['me'] as const;

/** Who is signed in, at the foot of the sidebar: a guest can sign in or up, a member sign out; staff reach the console. */
export function AccountMenu() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const me = useQuery({
    queryKey: meKey,
    queryFn: async () => (await (await fetch('/api/me', { cache: 'no-store' })).json()) as Me,
    staleTime: 30_000,
  });
  const user = me.data?.user;
  if (!user) return <span className="shrink-0 rounded-full bg-subtle px-2 py-0.5 text-[11px]">…</span>;
  if (user.kind === 'guest') {
    return (
      <span className="flex shrink-0 items-center gap-2" data-testid="account-menu" data-kind="guest">
        <span
          className="rounded-full bg-subtle px-2 py-0.5 text-[11px]"
          title="Your chats are kept in this browser only until you create an account"
        >
          Guest
        </span>
        <Link
          href="/signup"
          data-testid="sign-up-link"
          className="font-medium text-accent hover:underline"
          title="Create an account: your chats and memory come with you"
        >
          Sign up
        </Link>
        <Link href="/login" data-testid="sign-in-link" className="font-medium text-accent hover:underline">
          Sign in
        </Link>
      </span>
    );
  }
  return (
    <span className="flex min-w-0 items-center gap-2" data-testid="account-menu" data-kind="member">
      {user.role === 'staff' ? (
        <Link
          href="/staff"
          className="shrink-0 rounded-full bg-accent-soft px-2 py-0.5 text-[11px] font-medium text-accent hover:underline"
        >
          Staff
        </Link>
      ) : null}
      <Link
        href="/account"
        data-testid="account-link"
        className="truncate text-fg hover:underline"
        title={`${user.email ?? ''}: your account, change password`}
      >
        {user.email}
      </Link>
      <button
        type="button"
        data-testid="sign-out"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await authClient.signOut();
          await queryClient.invalidateQueries();
          router.push('/');
          router.refresh();
          setBusy(false);
        }}
        className="shrink-0 font-medium text-accent hover:underline disabled:opacity-50"
      >
        Sign out
      </button>
    </span>
  );
}
