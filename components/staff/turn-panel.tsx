'use client';

import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { ApiError } from '../http';
import { ChevronIcon, CloseIcon, InspectorIcon } from '../icons';
import { turnKey, useEndpoints } from '../inspector/endpoints';
import { TurnView } from '../inspector/turn-view';
import { Badge, Notice } from '../ui/badge';
import { Skeleton } from '../ui/loading';
import { VisibleText } from '../visible-text';
import type { StaffMessage } from './types';

/** A reply's turn record, read-only: a column beside the messages on a wide screen, the whole screen on a phone. */
export function TurnPanel({
  messageId,
  replies,
  onTurn,
}: {
  messageId: string;
  replies: StaffMessage[];
  onTurn: (messageId: string | null) => void;
}) {
  const ref = useRef<HTMLElement>(null);
  const endpoints = useEndpoints();
  const turn = useQuery({
    queryKey: turnKey(endpoints, messageId),
    queryFn: () => endpoints.turnContext(messageId),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
    staleTime: 60_000,
  });
  const index = replies.findIndex((m) => m.id === messageId);
  const previous = index > 0 ? replies[index - 1] : null;
  const next = index >= 0 && index < replies.length - 1 ? replies[index + 1] : null;

  // On a phone the panel covers the page: it takes the focus, and Escape closes it (as it does on a wide screen).
  useEffect(() => {
    if (!window.matchMedia('(min-width: 64rem)').matches) ref.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && !document.querySelector('dialog[open]')) onTurn(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onTurn]);

  const onReveal = useCallback(() => {
    if (!window.matchMedia('(min-width: 64rem)').matches) onTurn(null);
  }, [onTurn]);

  return (
    <aside
      ref={ref}
      tabIndex={-1}
      aria-label="Turn record"
      data-testid="inspector"
      data-message-id={messageId}
      data-status={turn.data?.context.status ?? ''}
      className="fixed inset-0 z-40 flex flex-col overflow-hidden bg-surface outline-none lg:sticky lg:top-20 lg:z-auto lg:max-h-[calc(100dvh-6rem)] lg:self-start lg:rounded-xl lg:border lg:border-line lg:shadow-xs"
    >
      <div className="shrink-0 border-b border-line px-4 py-3">
        <div className="flex items-center gap-2">
          <span className="grid size-6 place-items-center rounded-md bg-accent-soft text-accent" aria-hidden="true">
            <InspectorIcon width={14} height={14} />
          </span>
          <h2 className="text-[15px] font-semibold">Turn record</h2>
          <Badge title="Staff see the record as it was stored; nothing here can be changed">read-only</Badge>
          <button
            type="button"
            data-testid="close-turn"
            onClick={() => onTurn(null)}
            className="ml-auto rounded-md p-1.5 text-muted hover:bg-subtle hover:text-fg"
            aria-label="Close the turn record"
            title="Close (Esc)"
          >
            <CloseIcon width={16} height={16} />
          </button>
        </div>
        <div className="mt-2 flex items-center gap-1.5 text-xs">
          <button
            type="button"
            onClick={() => previous && onTurn(previous.id)}
            disabled={!previous}
            className="rounded p-0.5 text-muted hover:bg-subtle hover:text-fg disabled:opacity-30"
            aria-label="Previous reply"
          >
            <ChevronIcon width={14} height={14} className="rotate-180" />
          </button>
          <span className="font-medium tabular-nums" aria-live="polite">
            Reply {index + 1} of {replies.length}
          </span>
          <button
            type="button"
            onClick={() => next && onTurn(next.id)}
            disabled={!next}
            className="rounded p-0.5 text-muted hover:bg-subtle hover:text-fg disabled:opacity-30"
            aria-label="Next reply"
          >
            <ChevronIcon width={14} height={14} />
          </button>
          {turn.data ? (
            <span className="ml-auto truncate text-muted" title={turn.data.requestId}>
              request <span className="font-mono">{turn.data.requestId.slice(0, 8)}</span>
            </span>
          ) : null}
        </div>
        {turn.data ? (
          <p className="mt-1 line-clamp-2 text-xs text-muted" title={turn.data.context.question.text}>
            Answering:{' '}
            <span className="text-fg">
              “<VisibleText text={turn.data.context.question.text} />”
            </span>
          </p>
        ) : null}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto" data-testid="turn-view">
        {turn.isPending ? (
          <Skeleton lines={8} />
        ) : turn.error instanceof ApiError && turn.error.status === 404 ? (
          <div className="p-4">
            <Notice testId="no-record">{turn.error.message}</Notice>
          </div>
        ) : turn.isError ? (
          <div className="p-4">
            <Notice tone="danger">
              Could not load the turn record: {turn.error.message}{' '}
              <button type="button" className="underline" onClick={() => void turn.refetch()}>
                Try again
              </button>
            </Notice>
          </div>
        ) : turn.data ? (
          <TurnView record={turn.data.context} onReveal={onReveal} />
        ) : null}
      </div>
    </aside>
  );
}
