'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../http';
import { Notice } from '../ui/badge';
import { Card } from '../ui/card';
import { plural } from '../ui/format';
import { Empty, LoadError, Skeleton } from '../ui/loading';
import { buttons } from '../ui/styles';
import { staffApi, staffKeys } from './api';
import { FilterForm } from './audit-filter';
import { AuditRow } from './audit-row';
import type { AuditFilter } from './types';

const PAGE = 50;

const FIELDS_HELP = (
  <>
    <p>
      One entry per event, newest first. The log is append-only: the database refuses to change or delete an entry. It records every time
      staff read another user&apos;s data, and every edit, deletion, clear or forget of memory by anyone (the user, staff, or memlens
      itself).
    </p>
    <p>
      <b>Action</b> on an <b>object</b>: what happened to what (a fact edited, a summary cleared, a turn record read…). <b>By</b>: who did
      it, with their role at the time: <b>staff</b>, <b>user</b> (the person changing their own memory), or <b>system</b> (memlens&apos; own
      rules, e.g. a fact replaced by a newer one). <b>About</b>: whose data it is. <b>Reason</b>: why, required for every staff edit.
    </p>
    <p>
      <b>Before / after</b>: the object around the change. Deleted text appears only as <span className="font-mono">[redacted]</span>, here
      and in the export. <b>Request</b>: the id of the HTTP request; entries sharing it were written by the same action.
    </p>
  </>
);

const EXPORT_LIMIT = 1000;

/**
 * Downloads the matching entries. Fetched with the console's header, as every staff call is (a
 * plain link would carry none, and the server could not tell it from a link on another site).
 */
function ExportButton({ filter }: { filter: AuditFilter }) {
  const [exporting, setExporting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const download = async () => {
    setExporting(true);
    setProblem(null);
    try {
      const url = URL.createObjectURL(await staffApi.auditExport(filter, EXPORT_LIMIT));
      const link = Object.assign(document.createElement('a'), { href: url, download: 'memlens-audit.jsonl' });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        onClick={() => void download()}
        disabled={exporting}
        data-testid="audit-export"
        className={buttons.secondary}
        title="The newest 1,000 entries matching the filters, one JSON object per line"
      >
        {exporting ? 'Exporting…' : 'Export JSON Lines'}
      </button>
      {problem && (
        <p role="alert" className="text-sm text-danger">
          Export failed: {problem}
        </p>
      )}
    </div>
  );
}

/** /staff/audit: the audit log with filters, paging and a JSON Lines export. */
export function AuditPage({ filter }: { filter: AuditFilter }) {
  const me = useQuery({
    queryKey: ['me'],
    queryFn: async () => (await (await fetch('/api/me', { cache: 'no-store' })).json()) as { user: { id: string } },
    staleTime: 30_000,
  });
  const entries = useInfiniteQuery({
    queryKey: staffKeys.audit(filter),
    queryFn: ({ pageParam }) => staffApi.audit(filter, pageParam, PAGE),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.length === PAGE ? last.at(-1)!.id : undefined),
    // A refused filter stays refused: say so at once.
    retry: (count, error) => !(error instanceof ApiError && error.status === 400) && count < 3,
  });
  const rows = entries.data?.pages.flat() ?? [];
  const moreError = entries.isFetchNextPageError ? entries.error : null;
  const active = Object.values(filter).filter(Boolean).length;

  return (
    <div className="space-y-6" data-testid="staff-audit">
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <div className="min-w-0 flex-1 basis-72">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">Audit log</h1>
          <p className="mt-1.5 max-w-3xl text-[15px] leading-7 text-muted">
            Who read or changed whose data, when and why. Filter it, page back through it, or export what the filters match (the newest
            1,000 entries) as JSON Lines, one entry per line.
          </p>
        </div>
        <ExportButton filter={filter} />
      </div>

      <FilterForm key={JSON.stringify(filter)} filter={filter} />

      <Card
        title={active ? 'Matching entries' : 'All entries'}
        meta={entries.data ? `${plural(rows.length, 'entry', 'entries')} shown${entries.hasNextPage ? ', more below' : ''}` : undefined}
        help={FIELDS_HELP}
        description="Newest first. Open an entry for what it changed."
        testId="audit-results"
        flush
      >
        {entries.isPending ? (
          <div role="status" aria-label="Loading the audit log">
            <Skeleton lines={6} />
          </div>
        ) : entries.error instanceof ApiError && entries.error.status === 400 ? (
          // A filter the server refused (an email no user has): its reason, and no list.
          <div className="px-4 pb-4 sm:px-5">
            <Notice tone="danger" testId="audit-query-error">
              {entries.error.message}
            </Notice>
          </div>
        ) : entries.isError ? (
          <div className="px-4 pb-4 sm:px-5">
            <LoadError what="the audit log" error={entries.error} retry={() => void entries.refetch()} />
          </div>
        ) : rows.length === 0 ? (
          <div className="px-4 pb-4 sm:px-5">
            <Empty title={active ? 'No entry matches these filters' : 'The audit log is empty'} testId="audit-empty">
              {active
                ? 'Widen the date range or clear a filter.'
                : 'Entries appear when staff read a user’s data or anyone changes memory.'}
            </Empty>
          </div>
        ) : (
          <>
            <ol className="divide-y divide-line border-t border-line" data-testid="audit-list">
              {rows.map((entry) => (
                <AuditRow key={entry.id} entry={entry} me={me.data?.user.id ?? null} />
              ))}
            </ol>
            <div className="flex flex-wrap items-center justify-center gap-3 border-t border-line px-4 py-3 text-sm text-muted">
              {entries.hasNextPage ? (
                <button
                  type="button"
                  data-testid="audit-more"
                  onClick={() => void entries.fetchNextPage()}
                  disabled={entries.isFetchingNextPage}
                  className={buttons.secondary}
                >
                  {entries.isFetchingNextPage ? 'Loading…' : `Load ${PAGE} older entries`}
                </button>
              ) : (
                <span data-testid="audit-end">That is every matching entry.</span>
              )}
              {moreError ? <span className="text-danger">Could not load more: {moreError.message}</span> : null}
            </div>
          </>
        )}
      </Card>
    </div>
  );
}
