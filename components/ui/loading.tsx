import type { ReactNode } from 'react';
import { Notice } from './badge';

export function Skeleton({ lines = 3 }: { lines?: number }) {
  return (
    <div className="space-y-2 p-4" aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder lines with no data of their own, a fixed count
        <div key={i} className="h-3 animate-pulse rounded bg-subtle" style={{ width: `${90 - i * 17}%` }} />
      ))}
    </div>
  );
}

/** A failed load, with what failed and a way to try again. */
export function LoadError({ what, error, retry }: { what: string; error: Error; retry: () => void }) {
  return (
    <Notice tone="danger">
      Could not load {what}: {error.message}{' '}
      <button type="button" className="underline" onClick={retry}>
        Try again
      </button>
    </Notice>
  );
}

/** A query's loading and error states; its data once there. */
export function Loaded<T>({
  query,
  what,
  lines = 4,
  children,
}: {
  query: { data: T | undefined; isPending: boolean; isError: boolean; error: Error | null; refetch: () => unknown };
  what: string;
  lines?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <div role="status" aria-label={`Loading ${what}`} data-testid="staff-loading">
        <Skeleton lines={lines} />
      </div>
    );
  }
  if (query.isError || query.data === undefined) {
    return (
      <div className="p-1" data-testid="staff-error">
        <LoadError what={what} error={query.error ?? new Error('no data')} retry={() => void query.refetch()} />
      </div>
    );
  }
  return <>{children(query.data)}</>;
}

/** Nothing to show, said plainly, with what would fill it. */
export function Empty({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId} className="rounded-lg border border-dashed border-line px-4 py-8 text-center">
      <p className="text-sm font-medium">{title}</p>
      {children ? <div className="mx-auto mt-1 max-w-md text-sm leading-6 text-muted">{children}</div> : null}
    </div>
  );
}
