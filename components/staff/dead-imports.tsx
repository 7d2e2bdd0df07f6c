'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Badge } from '../ui/badge';
import { Card } from '../ui/card';
import { formatDateTime, plural } from '../ui/format';
import { IdText } from '../ui/id-text';
import { staffApi } from './api';
import type { StaffDeadImport } from './types';
import { Detail, OwnerDetail, RetryButton, RetryFailed, WorkError } from './work-row';

type Notice = { tone: 'good' | 'danger'; text: string };

/** The jobs page's dead imports: imports cut off every time they ran, each with Retry. Nothing when there are none. */
export function DeadImports({ imports, onRetried }: { imports: StaffDeadImport[] | undefined; onRetried: (notice: Notice) => void }) {
  if (!imports || imports.length === 0) return null;
  return (
    <Card
      title="Dead imports"
      meta={plural(imports.length, 'import')}
      help={
        <p>
          An import is claimed by a worker and run a chunk at a time. One whose runs were cut off every time (the process stopped, crashed
          or stalled on it) is <b>dead</b> after the last attempt, so it cannot hold up every start. <b>Retry</b> queues it again from where
          it stopped, its attempts from zero; it is written to the audit log.
        </p>
      }
      testId="dead-imports"
    >
      <ul className="space-y-2">
        {imports.map((row) => (
          <DeadImportRow key={row.id} row={row} onRetried={onRetried} />
        ))}
      </ul>
    </Card>
  );
}

function DeadImportRow({ row, onRetried }: { row: StaffDeadImport; onRetried: (notice: Notice) => void }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => staffApi.retryImport(row.id),
    onSuccess: () => {
      onRetried({ tone: 'good', text: `Queued import ${row.id.slice(0, 8)} again; it resumes from where it stopped.` });
      void queryClient.invalidateQueries({ queryKey: ['staff', 'jobs'] });
      void queryClient.invalidateQueries({ queryKey: ['staff', 'audit'] });
    },
  });
  return (
    <li data-testid="dead-import" data-import-id={row.id} className="rounded-lg border border-danger/30 bg-danger-soft/30 p-3">
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <p className="flex min-w-0 flex-1 basis-60 flex-wrap items-center gap-2">
          <span className="text-sm font-medium">Import</span>
          <Badge tone="danger">dead</Badge>
          <span className="text-xs text-muted tabular-nums" data-testid="dead-import-attempts">
            {plural(row.attempts, 'attempt')}
          </span>
          <span className="text-xs text-muted tabular-nums">
            {row.messagesStored.toLocaleString()} of {plural(row.messagesTotal, 'message')} stored
          </span>
        </p>
        <RetryButton testId="retry-import" pending={retry.isPending} onClick={() => retry.mutate()}>
          {retry.isPending ? 'Queuing…' : 'Retry'}
        </RetryButton>
      </div>
      <WorkError testId="dead-import-error" text={row.error} />
      <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
        <Detail label="Stopped">
          <dd className="text-fg">{formatDateTime(row.updatedAt)}</dd>
        </Detail>
        <OwnerDetail user={row} />
        <Detail label="Import" className="flex items-center gap-1">
          <dd>
            <IdText id={row.id} short />
          </dd>
        </Detail>
      </dl>
      <RetryFailed error={retry.error} />
    </li>
  );
}
