'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { ChevronIcon, SearchIcon } from '../icons';
import { Card } from '../ui/card';
import { formatDateTime, plural } from '../ui/format';
import { Empty, Loaded } from '../ui/loading';
import { buttons } from '../ui/styles';
import { AccountBadges, ROLE_HELP } from './account';
import { staffApi, staffKeys } from './api';

const USERS_HELP = (
  <>
    <p>
      Search matches any part of an email or display name, or a whole id: a user's, or one of their conversations' or messages'. A guest has
      no email: ask for the address of the conversation they mean (it ends in the conversation's id, /c/&lt;id&gt;) and paste that id. With
      no search, the 50 newest accounts are listed (guests included). Each search is written to the audit log.
    </p>
    <p>
      <b>Conversations</b>: how many the user has. <b>Active facts</b>: the facts memory can recall for them now (replaced or deleted ones
      are not counted).
    </p>
    {ROLE_HELP}
  </>
);

/** /staff: find a user by email, name or id, and open them. */
export function UsersPage({ q }: { q: string }) {
  const router = useRouter();
  const [input, setInput] = useState(q);
  const inputId = useId();
  const users = useQuery({ queryKey: staffKeys.users(q), queryFn: () => staffApi.searchUsers(q) });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <div className="min-w-0 flex-1 basis-72">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">Users</h1>
          <p className="mt-1.5 max-w-3xl text-[15px] leading-7 text-muted">
            Find the person who wrote in, then read their conversations, the context behind any reply, and what memlens remembers about
            them. Every read of someone else&apos;s data and every change you make is recorded in the audit log.
          </p>
        </div>
      </div>

      {/* biome-ignore lint/a11y/useSemanticElements: role=search on the form is the ARIA landmark; a wrapping <search> element would add a box to the layout for the same landmark */}
      <form
        role="search"
        className="flex flex-col gap-2 sm:flex-row"
        onSubmit={(event) => {
          event.preventDefault();
          const next = input.trim();
          router.push(next ? `/staff?q=${encodeURIComponent(next)}` : '/staff');
        }}
      >
        <label htmlFor={inputId} className="sr-only">
          Search users by email, name, or a user, conversation or message id
        </label>
        <div className="relative min-w-0 flex-1">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-faint" />
          <input
            id={inputId}
            type="search"
            data-testid="user-search"
            value={input}
            onChange={(event) => setInput(event.target.value)}
            placeholder="Email, name, or a user, conversation or message id"
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            // biome-ignore lint/a11y/noAutofocus: searching is what this page is for; the box is focused only while it is empty
            autoFocus={!q}
            className="w-full rounded-lg border border-line bg-surface py-2.5 pr-3 pl-9 text-[15px] shadow-xs placeholder:text-faint focus:border-accent focus:outline-none"
          />
        </div>
        <button type="submit" data-testid="user-search-submit" className={`${buttons.primary} px-4 py-2.5`}>
          Search
        </button>
      </form>

      <Card
        title={q ? <>Results for “{q}”</> : 'Newest accounts'}
        meta={users.data ? plural(users.data.length, 'user') : undefined}
        help={USERS_HELP}
        testId="user-results"
        flush
      >
        <Loaded query={users} what="users">
          {(rows) =>
            rows.length === 0 ? (
              <div className="px-4 pb-4 sm:px-5">
                <Empty title={q ? `No user matches “${q}”` : 'No users yet'} testId="users-empty">
                  {q
                    ? 'Search by any part of an email or name, or paste a whole id: a user’s (from the audit log or a job), or a conversation’s or message’s (a guest can read it from their address bar).'
                    : 'Users appear here as soon as someone opens the app.'}
                </Empty>
              </div>
            ) : (
              <>
                <div className="hidden grid-cols-[minmax(0,1fr)_8rem_7rem_6rem_10rem_1rem] gap-3 border-y border-line bg-subtle/60 px-5 py-2 text-xs font-medium text-muted md:grid">
                  <span>User</span>
                  <span>Account</span>
                  <span className="text-right">Conversations</span>
                  <span className="text-right">Active facts</span>
                  <span>Created</span>
                  <span />
                </div>
                <ul className="divide-y divide-line border-t border-line md:border-t-0" data-testid="user-list">
                  {rows.map((user) => (
                    <li key={user.id}>
                      <Link
                        href={`/staff/users/${user.id}`}
                        data-testid="user-row"
                        data-user-id={user.id}
                        className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 px-4 py-3 hover:bg-subtle/60 focus-visible:bg-subtle/60 sm:px-5 md:grid-cols-[minmax(0,1fr)_8rem_7rem_6rem_10rem_1rem] md:items-center"
                      >
                        <span className="col-start-1 row-start-1 min-w-0 md:col-start-auto md:row-start-auto">
                          <span className="block truncate font-medium" data-testid="user-row-email">
                            {user.email ?? <span className="text-muted italic">no email (guest)</span>}
                          </span>
                          <span className="block truncate text-xs text-muted">
                            {user.displayName ? `${user.displayName} · ` : ''}
                            <span className="font-mono">{user.id}</span>
                          </span>
                        </span>
                        <span className="col-start-2 row-start-1 self-start md:col-start-auto md:row-start-auto md:self-center">
                          <AccountBadges user={user} />
                        </span>
                        <span className="col-span-2 text-xs text-muted tabular-nums md:col-span-1 md:text-right md:text-sm md:text-fg">
                          <span className="md:hidden">{plural(user.conversations, 'conversation')} · </span>
                          <span className="hidden md:inline">{user.conversations}</span>
                          <span className="md:hidden">
                            {plural(user.facts, 'active fact')} · created {formatDateTime(user.createdAt)}
                          </span>
                        </span>
                        <span className="hidden text-right text-sm tabular-nums md:block">{user.facts}</span>
                        <span className="hidden text-sm text-muted md:block">{formatDateTime(user.createdAt)}</span>
                        <ChevronIcon width={14} height={14} className="hidden text-faint md:block" />
                      </Link>
                    </li>
                  ))}
                </ul>
              </>
            )
          }
        </Loaded>
      </Card>
    </div>
  );
}
