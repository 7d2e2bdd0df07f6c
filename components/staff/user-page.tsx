'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { ApiError } from '../http';
import { ChatIcon, ChevronIcon } from '../icons';
import { Card } from '../ui/card';
import { Field } from '../ui/field';
import { formatDateTime, plural } from '../ui/format';
import { IdText } from '../ui/id-text';
import { Empty, Loaded } from '../ui/loading';
import { buttons } from '../ui/styles';
import { AccountBadges, ROLE_HELP } from './account';
import { staffApi, staffKeys } from './api';
import type { StaffConversation, UserOverview } from './types';
import { FactsCard } from './user-facts';

const ACCOUNT_HELP = (
  <>
    {ROLE_HELP}
    <p>
      <b>First seen from</b>: the client address a guest was created from (new guests are limited per address and hour). <b>Memory floor</b>
      : set when the user chose “forget everything”; nothing they said before it is remembered again.
    </p>
  </>
);

/** /staff/users/:id: the account, its conversations, and its facts with edit and delete (each asks for a reason). */
export function UserPage({ userId }: { userId: string }) {
  const overview = useQuery({
    queryKey: staffKeys.user(userId),
    queryFn: () => staffApi.user(userId),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });

  if (overview.error instanceof ApiError && overview.error.status === 404) {
    return (
      <div className="space-y-4">
        <BackToUsers />
        <Empty title="No such user" testId="user-missing">
          There is no user with the id <span className="font-mono">{userId}</span>: the account may have been deleted.
        </Empty>
      </div>
    );
  }

  return (
    <div className="space-y-6" data-testid="staff-user">
      <BackToUsers />
      <Loaded query={overview} what="the user" lines={6}>
        {(data) => <Overview data={data} />}
      </Loaded>
    </div>
  );
}

function BackToUsers() {
  return (
    <Link href="/staff" className="inline-flex items-center gap-1 text-sm text-muted hover:text-fg">
      <ChevronIcon width={14} height={14} className="rotate-180" />
      Users
    </Link>
  );
}

function Overview({ data }: { data: UserOverview }) {
  const { user, conversations, facts } = data;
  const titles = new Map(conversations.map((c) => [c.id, c.title]));
  return (
    <>
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <div className="min-w-0 flex-1 basis-72">
          <h1 className="text-xl font-semibold tracking-tight break-words sm:text-2xl" data-testid="staff-user-title">
            {user.email ?? user.displayName ?? 'Guest'}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted">
            <AccountBadges user={user} />
            <span>
              {plural(conversations.length, 'conversation')} · {plural(facts.filter((f) => f.status === 'active').length, 'active fact')}
            </span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href={`/staff/jobs?userId=${user.id}`} className={buttons.secondary} data-testid="user-jobs-link">
            Their jobs
          </Link>
          <Link href={`/staff/audit?targetUserId=${user.id}`} className={buttons.secondary} data-testid="user-audit-link">
            Audit log about them
          </Link>
        </div>
      </div>

      {/* One column of minmax(0, 1fr) on a phone: an implicit auto column grows to its widest content and overflows. */}
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-6">
          <Card title="Account" help={ACCOUNT_HELP} testId="user-account">
            <dl>
              <Field label="Email">{user.email ?? <span className="text-muted">none (guest)</span>}</Field>
              <Field label="Name">{user.displayName ?? <span className="text-muted">—</span>}</Field>
              <Field label="User id">
                <IdText id={user.id} testId="user-id" />
              </Field>
              <Field label="Account">
                <AccountBadges user={user} />
              </Field>
              <Field label="Created">{formatDateTime(user.createdAt)}</Field>
              {user.createdFrom ? (
                <Field label="First seen from">
                  <span className="font-mono text-xs">{user.createdFrom}</span>
                </Field>
              ) : null}
              <Field label="Memory floor">
                {user.memoryFloorSeq > 0 ? <span>set: they chose “forget everything”</span> : <span className="text-muted">not set</span>}
              </Field>
            </dl>
          </Card>
          <ConversationsCard conversations={conversations} />
        </div>
        <FactsCard userId={user.id} facts={facts} titles={titles} />
      </div>
    </>
  );
}

function ConversationsCard({ conversations }: { conversations: StaffConversation[] }) {
  return (
    <Card
      title="Conversations"
      meta={conversations.length ? String(conversations.length) : undefined}
      description="Newest first. Opening one is recorded in the audit log."
      testId="user-conversations"
      flush
    >
      {conversations.length === 0 ? (
        <div className="px-4 pb-4 sm:px-5">
          <Empty title="No conversations" testId="conversations-empty">
            This user has not started a conversation yet (or deleted them all).
          </Empty>
        </div>
      ) : (
        <ul className="divide-y divide-line border-t border-line">
          {conversations.map((conversation) => (
            <li key={conversation.id}>
              <Link
                href={`/staff/conversations/${conversation.id}`}
                data-testid="user-conversation"
                data-conversation-id={conversation.id}
                className="flex items-center gap-3 px-4 py-2.5 hover:bg-subtle/60 sm:px-5"
              >
                <ChatIcon width={15} height={15} className="shrink-0 text-faint" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium">{conversation.title}</span>
                  <span className="block text-xs text-muted">updated {formatDateTime(conversation.updatedAt)}</span>
                </span>
                <ChevronIcon width={14} height={14} className="shrink-0 text-faint" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
