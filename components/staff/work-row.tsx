import Link from 'next/link';
import type { ReactNode } from 'react';
import { RetryIcon } from '../icons';
import { StatusLine } from '../ui/badge';
import { buttons } from '../ui/styles';

/** The parts a row of failed background work shares on the jobs page: post-turn jobs and dead imports. */

export function RetryButton({
  testId,
  pending,
  onClick,
  children,
}: {
  testId: string;
  pending: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" data-testid={testId} onClick={onClick} disabled={pending} className={buttons.secondary}>
      <RetryIcon width={14} height={14} />
      {children}
    </button>
  );
}

/** The error the work last ended with, as recorded. */
export function WorkError({ testId, text }: { testId: string; text: string | null }) {
  if (!text) return null;
  return (
    <pre
      data-testid={testId}
      className="mt-2 max-h-40 overflow-auto rounded-md border border-danger/25 bg-surface px-2.5 py-1.5 font-mono text-xs leading-5 whitespace-pre-wrap text-danger"
    >
      {text}
    </pre>
  );
}

/** One labelled value in the row's details. */
export function Detail({
  label,
  title,
  className = 'flex gap-1',
  children,
}: {
  label: string;
  title?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className} title={title}>
      <dt>{label}</dt>
      {children}
    </div>
  );
}

/** Whose work it is: their address, or their kind and id, linking to their page in the console. */
export function OwnerDetail({
  user,
  testId,
}: {
  user: { userId: string; userEmail: string | null; userKind: string | null };
  testId?: string;
}) {
  return (
    <Detail label="User" className="flex min-w-0 gap-1">
      <dd className="min-w-0 truncate">
        <Link href={`/staff/users/${user.userId}`} className="text-accent hover:underline" title={user.userId} data-testid={testId}>
          {user.userEmail ?? `${user.userKind ?? 'user'} ${user.userId.slice(0, 8)}`}
        </Link>
      </dd>
    </Detail>
  );
}

export function RetryFailed({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <div className="mt-2">
      <StatusLine tone="danger">Could not retry: {error.message}</StatusLine>
    </div>
  );
}
