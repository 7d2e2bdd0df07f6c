'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CloseIcon } from '../icons';
import { Badge, StatusLine } from '../ui/badge';
import { Card } from '../ui/card';
import { formatDateTime, plural } from '../ui/format';
import { IdText } from '../ui/id-text';
import { Empty, Loaded } from '../ui/loading';
import { buttons } from '../ui/styles';
import { staffApi, staffKeys } from './api';
import { DeadImports } from './dead-imports';
import type { JobStatus, StaffJob } from './types';
import { Detail, OwnerDetail, RetryButton, RetryFailed, WorkError } from './work-row';

const FILTERS: Array<{ value: JobStatus | null; label: string }> = [
  { value: null, label: 'All' },
  { value: 'dead', label: 'Dead' },
  { value: 'failed', label: 'Failed' },
  { value: 'pending', label: 'Pending' },
  { value: 'running', label: 'Running' },
  { value: 'done', label: 'Done' },
];

const KINDS: Record<string, { label: string; what: string }> = {
  index_episode: {
    label: 'Index episode',
    what: 'stores the exchange (question and reply) with its embedding, so later turns can recall it',
  },
  extract_facts: { label: 'Extract facts', what: 'reads the user’s message for facts about them and adds, updates or deletes facts' },
  refresh_summary: {
    label: 'Refresh summary',
    what: 'brings the conversation’s rolling summary up to date once enough new messages can be covered',
  },
};

const STATUS_TONE: Record<JobStatus, 'neutral' | 'accent' | 'good' | 'danger'> = {
  pending: 'neutral',
  running: 'accent',
  done: 'good',
  failed: 'danger',
  dead: 'danger',
};

const JOBS_HELP = (
  <>
    <p>
      After every reply memlens runs three jobs in the background: <b>index episode</b>, <b>extract facts</b> and <b>refresh summary</b>. A
      failure never breaks the chat or loses a message; the job is tried again with a growing pause between attempts. After the last attempt
      (a run cut off by a crash counts as one) it is <b>dead</b>: it is not run again until someone retries it. Imports that were cut off
      every time they ran are dead too, and listed above the jobs.
    </p>
    <p>
      <b>Attempts</b>: how many times it has run. <b>Next try</b>: when a pending job runs again. <b>Retry</b> resets the attempts and runs
      the reply&apos;s due jobs now; it is written to the audit log. Jobs are idempotent: running one again never duplicates memory.
    </p>
  </>
);

/** "the newest 100 of 2,345 jobs" while older pages are still to load. */
function describeShown(shown: number, status: JobStatus | null, counts: Record<JobStatus, number> | undefined): string {
  const total = counts ? (status ? counts[status] : Object.values(counts).reduce((a, b) => a + b, 0)) : shown;
  return total > shown ? `the newest ${shown.toLocaleString()} of ${plural(total, 'job')}` : plural(shown, 'job');
}

/** "0.4 s", "12 s", "3 min 5 s", "2 h 10 min". */
function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${Math.max(0, seconds).toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** How long a finished job took, from being queued after its reply to its last run ending; a running one, so far. */
function durationOf(job: StaffJob): { label: string; value: string } | null {
  const queued = new Date(job.createdAt).getTime();
  if (job.status === 'done' || job.status === 'failed' || job.status === 'dead')
    return { label: 'Took', value: formatDuration(new Date(job.updatedAt).getTime() - queued) };
  if (job.status === 'running') return { label: 'Running for', value: formatDuration(Date.now() - queued) };
  return null;
}

/** /staff/jobs: the post-turn jobs, newest first; failures with their last error and Retry. */
export function JobsPage({ status, userId }: { status: JobStatus | null; userId: string | null }) {
  // What the last Retry did: said above the list, since a retried job may leave the filtered list.
  const [notice, setNotice] = useState<{ tone: 'good' | 'danger'; text: string } | null>(null);
  const pages = useInfiniteQuery({
    queryKey: staffKeys.jobs(status ?? '', userId ?? ''),
    queryFn: ({ pageParam }) => staffApi.jobs({ status: status ?? undefined, userId: userId ?? undefined }, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.jobs.some((job) => job.status === 'running' || job.status === 'pending')) ? 5_000 : false,
  });
  const counts = pages.data?.pages[0]?.counts;
  const jobs = { ...pages, data: pages.data ? pages.data.pages.flatMap((page) => page.jobs) : undefined };
  const href = (next: { status?: JobStatus | null; userId?: string | null }) => {
    const params = new URLSearchParams();
    const s = next.status === undefined ? status : next.status;
    const u = next.userId === undefined ? userId : next.userId;
    if (s) params.set('status', s);
    if (u) params.set('userId', u);
    const text = params.toString();
    return `/staff/jobs${text ? `?${text}` : ''}`;
  };

  return (
    <div className="space-y-6" data-testid="staff-jobs">
      <div>
        <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">Jobs</h1>
        <p className="mt-1.5 max-w-3xl text-[15px] leading-7 text-muted">
          The memory work that runs after each reply. A failed job means some memory is missing (an exchange that cannot be recalled, a fact
          not learned, a stale summary) until it is retried.
        </p>
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <nav aria-label="Filter by status" className="flex flex-wrap gap-1" data-testid="job-filters">
          {FILTERS.map((filter) => {
            const active = filter.value === status;
            return (
              <Link
                key={filter.label}
                href={href({ status: filter.value })}
                replace
                aria-current={active ? 'true' : undefined}
                data-testid={`job-filter-${filter.value ?? 'all'}`}
                className={`rounded-full border px-3 py-1 text-sm font-medium ${
                  active ? 'border-accent/40 bg-accent-soft text-accent' : 'border-line bg-surface text-muted hover:bg-subtle hover:text-fg'
                }`}
              >
                {filter.label}
                {counts ? (
                  <span className="ml-1.5 font-normal tabular-nums" data-testid="job-filter-count">
                    {(filter.value ? counts[filter.value] : Object.values(counts).reduce((a, b) => a + b, 0)).toLocaleString()}
                  </span>
                ) : null}
              </Link>
            );
          })}
        </nav>
        {userId ? (
          <span
            className="inline-flex items-center gap-1 rounded-full border border-line bg-surface py-0.5 pr-1 pl-3 text-sm text-muted"
            data-testid="job-user-filter"
          >
            {jobs.data?.[0]?.userEmail ?? (
              <>
                user <span className="font-mono text-xs">{userId.slice(0, 8)}</span>
              </>
            )}
            <Link
              href={href({ userId: null })}
              replace
              className="rounded-full p-1 hover:bg-subtle hover:text-fg"
              aria-label="Show every user's jobs"
            >
              <CloseIcon width={12} height={12} />
            </Link>
          </span>
        ) : null}
      </div>

      {notice ? (
        <StatusLine tone={notice.tone} testId="retry-result">
          {notice.text}
        </StatusLine>
      ) : null}

      <DeadImports imports={pages.data?.pages[0]?.imports} onRetried={setNotice} />

      <Card
        title={status ? `${status[0].toUpperCase()}${status.slice(1)} jobs` : 'All jobs'}
        meta={jobs.data ? describeShown(jobs.data.length, status, counts) : undefined}
        help={JOBS_HELP}
        testId="job-results"
      >
        <Loaded query={jobs} what="the jobs">
          {(rows) =>
            rows.length === 0 ? (
              <Empty title={status === 'failed' ? 'No failed jobs' : status ? `No ${status} jobs` : 'No jobs yet'} testId="jobs-empty">
                {status === 'failed'
                  ? 'Every post-turn job has succeeded (or is still being tried). Nothing needs a retry.'
                  : 'Jobs appear here after replies are written.'}
              </Empty>
            ) : (
              <>
                <ul className="space-y-2" data-testid="job-list">
                  {rows.map((job) => (
                    <JobRow key={job.id} job={job} onRetried={setNotice} />
                  ))}
                </ul>
                <div className="mt-3 flex flex-wrap items-center justify-center gap-3 text-sm text-muted">
                  {pages.hasNextPage ? (
                    <button
                      type="button"
                      data-testid="jobs-more"
                      onClick={() => void pages.fetchNextPage()}
                      disabled={pages.isFetchingNextPage}
                      className={buttons.secondary}
                    >
                      {pages.isFetchingNextPage ? 'Loading…' : 'Load older jobs'}
                    </button>
                  ) : (
                    <span data-testid="jobs-end">That is every job{status ? ` ${status}` : ''}.</span>
                  )}
                  {pages.isFetchNextPageError ? <span className="text-danger">Could not load more: {pages.error?.message}</span> : null}
                </div>
              </>
            )
          }
        </Loaded>
      </Card>
    </div>
  );
}

function JobRow({ job, onRetried }: { job: StaffJob; onRetried: (notice: { tone: 'good' | 'danger'; text: string }) => void }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => staffApi.retryJob(job.id),
    onSuccess: (after) => {
      const label = (KINDS[job.kind]?.label ?? job.kind).toLowerCase();
      onRetried(
        !after
          ? { tone: 'good', text: `Retried ${label}; the job no longer exists (its reply was deleted).` }
          : after.status === 'failed' || after.status === 'dead'
            ? {
                tone: 'danger',
                text: `Retried ${label} for reply ${job.messageId.slice(0, 8)}, and it failed again: ${after.lastError ?? 'no error recorded'}`,
              }
            : {
                tone: 'good',
                text: `Retried ${label} for reply ${job.messageId.slice(0, 8)}: the job is ${after.status === 'done' ? 'done' : after.status}.`,
              },
      );
      void queryClient.invalidateQueries({ queryKey: ['staff', 'jobs'] });
      void queryClient.invalidateQueries({ queryKey: ['staff', 'audit'] });
    },
  });
  const kind = KINDS[job.kind] ?? { label: job.kind, what: 'a post-turn job' };
  const canRetry = job.status === 'failed' || job.status === 'dead' || job.status === 'pending';
  const duration = durationOf(job);
  return (
    <li
      data-testid="job"
      data-job-id={job.id}
      data-status={job.status}
      className={`rounded-lg border p-3 ${job.status === 'failed' || job.status === 'dead' ? 'border-danger/30 bg-danger-soft/30' : 'border-line bg-surface'}`}
    >
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <div className="min-w-0 flex-1 basis-60">
          <p className="flex flex-wrap items-center gap-2">
            <span className="text-sm font-medium" title={kind.what}>
              {kind.label}
            </span>
            <Badge tone={STATUS_TONE[job.status]} testId="job-status">
              {job.status}
            </Badge>
            <span className="text-xs text-muted tabular-nums" title="How many times this job has run">
              {plural(job.attempts, 'attempt')}
            </span>
          </p>
          {job.status !== 'done' ? <p className="mt-0.5 text-xs text-muted">It {kind.what}.</p> : null}
        </div>
        {canRetry ? (
          <RetryButton testId="retry-job" pending={retry.isPending} onClick={() => retry.mutate()}>
            {retry.isPending ? 'Running…' : job.status === 'pending' ? 'Run now' : 'Retry'}
          </RetryButton>
        ) : null}
      </div>
      <WorkError testId="job-error" text={job.lastError} />
      <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
        <Detail label="Updated">
          <dd className="text-fg">{formatDateTime(job.updatedAt)}</dd>
        </Detail>
        {job.status === 'pending' ? (
          <Detail label="Next try">
            <dd className="text-fg">{formatDateTime(job.runAfter)}</dd>
          </Detail>
        ) : null}
        {duration ? (
          <Detail label={duration.label} title="From being queued after its reply to its last run ending">
            <dd className="text-fg tabular-nums" data-testid="job-duration">
              {duration.value}
            </dd>
          </Detail>
        ) : null}
        <OwnerDetail user={job} testId="job-user" />
        <Detail label="Conversation" className="flex min-w-0 gap-1">
          <dd className="min-w-0 truncate">
            <Link
              href={`/staff/conversations/${job.conversationId}`}
              className="text-accent hover:underline"
              title={job.conversationId}
              data-testid="job-conversation"
            >
              {job.conversationTitle ?? job.conversationId.slice(0, 8)}
            </Link>
          </dd>
        </Detail>
        <Detail label="Reply">
          <dd>
            <Link
              href={`/staff/conversations/${job.conversationId}?turn=${job.messageId}`}
              className="font-mono text-accent hover:underline"
              title="Open the reply this job ran for"
            >
              {job.messageId.slice(0, 8)}
            </Link>
          </dd>
        </Detail>
        <Detail label="Job" className="flex items-center gap-1">
          <dd>
            <IdText id={job.id} short />
          </dd>
        </Detail>
      </dl>
      <RetryFailed error={retry.error} />
    </li>
  );
}
