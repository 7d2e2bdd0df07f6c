'use client';

import { type ReactNode, useEffect, useId, useState } from 'react';
import { SearchIcon } from '../icons';
import { LoadError, Skeleton } from './loading';

/** A search box: a label for screen readers, Escape clears it. */
export function SearchField({
  label,
  value,
  onChange,
  placeholder,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="relative min-w-48 flex-1 basis-64">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-faint" />
      <input
        id={id}
        type="search"
        data-testid={testId}
        value={value}
        placeholder={placeholder}
        maxLength={200}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value) {
            event.preventDefault();
            onChange('');
          }
        }}
        className="w-full rounded-lg border border-line bg-canvas py-2 pr-3 pl-8 text-sm placeholder:text-faint focus:border-accent focus:outline-none"
      />
    </div>
  );
}

/**
 * The body of a searchable list: a skeleton while loading, a load error in its place, a line when there is
 * nothing (or nothing found), else how many were found (while searching) above the list.
 */
export function SearchResults({
  query,
  error,
  what,
  isEmpty,
  emptyText,
  foundText,
  testIds,
  children,
}: {
  query: { isPending: boolean; isFetching: boolean; refetch: () => unknown };
  /** Shown instead of the list. */
  error: Error | null;
  /** What could not be loaded: "your facts". */
  what: string;
  isEmpty: boolean;
  emptyText: string;
  /** "3 facts containing “tea”" while searching, else null. */
  foundText: string | null;
  testIds: { empty: string; found: string };
  children: ReactNode;
}) {
  return (
    <div className="mt-3" aria-busy={query.isFetching}>
      {query.isPending ? (
        <Skeleton lines={4} />
      ) : error ? (
        <LoadError what={what} error={error} retry={() => void query.refetch()} />
      ) : isEmpty ? (
        <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-muted" data-testid={testIds.empty}>
          {emptyText}
        </p>
      ) : (
        <>
          {foundText ? (
            <p className="mb-2 text-xs text-muted" role="status" data-testid={testIds.found}>
              {foundText}
            </p>
          ) : null}
          {children}
        </>
      )}
    </div>
  );
}

/** The value once it has stopped changing for `ms` (a search is sent when the user pauses typing). */
export function useDebounced<T>(value: T, ms = 250): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}
