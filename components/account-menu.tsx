'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { InspectorIcon } from './icons';
import { leaveSession, signInAgainPath, useSignOut } from './session-end';

type Me = { user: { id: string | null; kind: 'guest' | 'member'; role: 'user' | 'staff'; email: string | null; name: string | null } };

const meKey = ['me'] as const;

/** Who is signed in, at the foot of the sidebar: a guest can sign in or up, a member sign out; both reach /account. */
function useMe() {
  return useQuery({
    queryKey: meKey,
    queryFn: async () => (await (await fetch('/api/me', { cache: 'no-store' })).json()) as Me,
    // Read again whenever the tab comes back: a session may have ended meanwhile.
    staleTime: 0,
  });
}

/**
 * A member's page whose session ended elsewhere (expired, signed out in another tab, the account
 * deleted) is left as a sign-out leaves it: `/api/me` is read again on focus and after any API call
 * answered 401 (components/providers.tsx), and a member who is no longer the one signed in is sent
 * to sign in, nothing of theirs kept.
 */
function useLeaveWhenSessionEnds(user: Me['user'] | undefined) {
  const queryClient = useQueryClient();
  const member = useRef<string | null>(null);
  useEffect(() => {
    if (!user) return;
    if (member.current && user.id !== member.current) leaveSession(queryClient, signInAgainPath());
    else if (user.kind === 'member') member.current = user.id;
  }, [user, queryClient]);
}

/** For staff, a plain link to the staff console, on a line of its own above the account. */
export function StaffConsoleLink() {
  const me = useMe();
  if (me.data?.user.role !== 'staff') return null;
  return (
    <Link
      href="/staff"
      data-testid="staff-console-link"
      className="flex items-center gap-2 rounded-lg px-2 py-1.5 text-sm font-medium text-fg hover:bg-subtle"
    >
      <InspectorIcon width={15} height={15} aria-hidden="true" className="text-accent" />
      Staff console
    </Link>
  );
}

export function AccountMenu() {
  const signOut = useSignOut();
  const [busy, setBusy] = useState(false);
  const me = useMe();
  const user = me.data?.user;
  useLeaveWhenSessionEnds(user);
  if (!user) return <span className="shrink-0 rounded-full bg-subtle px-2 py-0.5 text-[11px]">…</span>;
  if (user.kind === 'guest') {
    return (
      <span className="flex shrink-0 items-center gap-2" data-testid="account-menu" data-kind="guest">
        <Link
          href="/account"
          data-testid="account-link"
          className="rounded-full bg-subtle px-2 py-0.5 text-[11px] hover:underline"
          title="Your chats are kept in this browser only until you create an account: export or delete them here"
        >
          Guest
        </Link>
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
      <Link
        href="/account"
        data-testid="account-link"
        className="truncate text-fg hover:underline"
        title={`${user.email ?? ''}: your account, change password, export or delete your data`}
      >
        {user.email}
      </Link>
      <button
        type="button"
        data-testid="sign-out"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await signOut('/');
        }}
        className="shrink-0 font-medium text-accent hover:underline disabled:opacity-50"
      >
        Sign out
      </button>
    </span>
  );
}
