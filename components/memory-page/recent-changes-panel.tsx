'use client';

import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, memoryKeys } from '../api';
import type { RecentChange, RecentChangesPage } from '../api-types';
import { describeActor, describeActorWithReason } from '../describe-actor';
import { ApiError } from '../http';
import { useUndoChange } from '../memory-changed';
import { formatDateTime, formatRelative, plural } from '../ui/format';
import { LoadError } from '../ui/loading';
import { SearchResults } from '../ui/search';
import { buttons } from '../ui/styles';
import { Panel } from './panel';

const PAGE_SIZE = 10;
const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/** A browser with no session yet has changed nothing: its list is empty, not an error. */
const noSession = (error: Error | null) => error instanceof ApiError && error.status === 401;
const EMPTY: RecentChangesPage = { changes: [], nextCursor: null, undoMinutes: 0 };

/**
 * Every change to the user's memory, newest first (theirs, memlens's and staff's), each with Undo
 * while it can be undone: the toast after a correction goes with the page, this list stays.
 */
export function RecentChangesPanel() {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: memoryKeys.recentChanges,
    queryFn: async ({ pageParam }) => {
      try {
        return await api.recentChanges(pageParam, PAGE_SIZE);
      } catch (error) {
        if (noSession(error as Error)) return EMPTY;
        throw error;
      }
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 2_000,
  });
  const changes = query.data?.pages.flatMap((page) => page.changes) ?? [];
  const minutes = query.data?.pages[0]?.undoMinutes;

  // When the first offer runs out, the list is read again, so no Undo outlives its time.
  const nextExpiry = Math.min(...changes.flatMap((c) => (c.undo ? [new Date(c.undo.expiresAt).getTime()] : [])));
  useEffect(() => {
    if (!Number.isFinite(nextExpiry)) return;
    const timer = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: memoryKeys.recentChanges }),
      Math.min(Math.max(nextExpiry - Date.now(), 0) + 500, 2_147_483_647),
    );
    return () => clearTimeout(timer);
  }, [nextExpiry, queryClient]);

  return (
    <Panel
      id="changes"
      title="Recent changes"
      description={
        <>
          Every change to what memlens remembers, newest first: yours, what memlens learned from your messages, and staff’s.
          {minutes ? ` You can undo yours and memlens’s for ${plural(minutes, 'minute')} after they are made.` : ''} When two changes
          touched the same memory, undo the later one first.
        </>
      }
    >
      <SearchResults
        query={query}
        error={changes.length === 0 && !noSession(query.error) ? query.error : null}
        what="your recent changes"
        isEmpty={changes.length === 0}
        emptyText="No changes yet. When you correct memory, or memlens learns something from your messages, it is listed here."
        foundText={null}
        testIds={{ empty: 'changes-empty', found: 'changes-found' }}
      >
        <ul className="divide-y divide-line rounded-lg border border-line" data-testid="change-list">
          {changes.map((change) => (
            <ChangeRow key={change.id} change={change} />
          ))}
        </ul>
        {query.isFetchNextPageError ? (
          <div className="mt-3">
            <LoadError what="more changes" error={query.error!} retry={() => void query.fetchNextPage()} />
          </div>
        ) : null}
        {query.hasNextPage ? (
          <div className="mt-3 flex justify-center">
            <button
              type="button"
              data-testid="changes-more"
              onClick={() => void query.fetchNextPage()}
              disabled={query.isFetchingNextPage}
              className={buttons.secondary}
            >
              {query.isFetchingNextPage ? 'Loading…' : 'Show older changes'}
            </button>
          </div>
        ) : null}
      </SearchResults>
    </Panel>
  );
}

function ChangeRow({ change }: { change: RecentChange }) {
  const undo = useUndoChange();
  const staff = change.by.startsWith('staff:');
  return (
    <li data-testid="recent-change" data-kind={change.kind} className="flex flex-wrap items-start gap-x-3 gap-y-1.5 px-3 py-2.5 text-sm">
      <div className="min-w-0 flex-1 basis-56">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-medium" data-testid="recent-change-what">
            {change.what}
          </span>
          {change.undone ? (
            <span className="text-muted" data-testid="recent-change-undone">
              (undone)
            </span>
          ) : null}
        </p>
        {change.text ? (
          <p className="mt-0.5 break-words text-fg" data-testid="recent-change-text">
            “{change.text}”{change.previousText ? <span className="text-muted"> (was “{change.previousText}”)</span> : null}
          </p>
        ) : null}
        <p className="mt-0.5 text-xs text-muted">
          <time dateTime={change.at} title={formatDateTime(change.at)}>
            {formatRelative(change.at)}
          </time>
          {' · '}
          <span data-testid="recent-change-by">
            {staff ? `changed by ${describeActorWithReason(change.by, change.reason)}` : `by ${describeActor(change.by)}`}
          </span>
          {change.undone ? null : (
            <>
              {' · '}
              <span data-testid="recent-change-status">{statusOf(change, staff)}</span>
            </>
          )}
        </p>
        {undo.error ? (
          <p role="alert" className="mt-1 text-xs text-danger" data-testid="recent-change-error">
            {undo.error.message}
          </p>
        ) : null}
      </div>
      {change.undo && !change.blocked && !undo.isSuccess ? (
        <button
          type="button"
          data-testid="recent-change-undo"
          disabled={undo.isPending}
          onClick={() => undo.mutate(change.undo!.id)}
          className={`shrink-0 ${buttons.secondary}`}
          aria-label={`Undo: ${change.what}`}
        >
          {undo.isPending ? 'Undoing…' : 'Undo'}
        </button>
      ) : null}
    </li>
  );
}

/** Whether and until when it can be undone, in words. */
function statusOf(change: RecentChange, staff: boolean): string {
  if (change.undo) {
    const until = time.format(new Date(change.undo.expiresAt));
    return change.blocked ? `a later change touched the same memory: undo that first (until ${until})` : `can be undone until ${until}`;
  }
  return staff ? 'only staff can undo it' : 'can no longer be undone';
}
