'use client';

import { type ReactNode, useEffect, useId, useState } from 'react';
import { SearchIcon } from '../icons';
import { LoadError, Skeleton } from '../inspector/ui';

// Building blocks of the Memory page; the small pieces (Badge, Notice, Skeleton…) come from the inspector's ui.tsx.

/** A link that opens a message in its conversation: the chat scrolls to it and flashes it (`useRevealFromHash`, inspector/store.tsx). */
export const messageHref = (conversationId: string, messageId: string) => `/c/${conversationId}#message-${messageId}`;

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** One part of the page: a card with a heading, a line on what it is, optional actions, and its body. */
export function Panel({
  id,
  title,
  description,
  meta,
  actions,
  tone = 'neutral',
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  meta?: ReactNode;
  actions?: ReactNode;
  tone?: 'neutral' | 'danger';
  children: ReactNode;
}) {
  const titleId = `${id}-title`;
  return (
    <section
      id={id}
      aria-labelledby={titleId}
      data-testid={`memory-${id}`}
      className={`scroll-mt-4 rounded-xl border bg-surface shadow-xs ${tone === 'danger' ? 'border-danger/30' : 'border-line'}`}
    >
      <header className="flex flex-wrap items-start gap-x-4 gap-y-2 px-4 pt-4 sm:px-5">
        <div className="min-w-0 flex-1 basis-64">
          <h2
            id={titleId}
            className={`flex flex-wrap items-baseline gap-x-2 text-base font-semibold tracking-tight ${tone === 'danger' ? 'text-danger' : ''}`}
          >
            {title}
            {meta ? <span className="text-sm font-normal text-muted">{meta}</span> : null}
          </h2>
          <p className="mt-1 text-sm leading-6 text-muted">{description}</p>
        </div>
        {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
      </header>
      <div className="px-4 pt-3 pb-4 sm:px-5">{children}</div>
    </section>
  );
}

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

export const buttonStyles = {
  primary:
    'inline-flex items-center justify-center gap-1.5 rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-on-accent shadow-xs hover:bg-accent-hover disabled:opacity-60',
  secondary:
    'inline-flex items-center justify-center gap-1.5 rounded-lg border border-line px-3 py-1.5 text-sm font-medium hover:bg-subtle disabled:opacity-60',
  quiet: 'inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-muted hover:bg-subtle hover:text-fg',
  quietDanger: 'inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-muted hover:bg-danger-soft hover:text-danger',
} as const;
