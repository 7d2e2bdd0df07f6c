'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { api, memoryKeys } from '../api';
import type { TurnRecord } from '../api-types';
import { ApiError } from '../http';
import { ChevronIcon, CloseIcon, LensIcon } from '../icons';
import { useShell } from '../shell-context';
import { type ChatMessage, textOf, turnRecordOf } from '../types';
import { Badge, Notice } from '../ui/badge';
import { HelpButton, HelpNote } from '../ui/help';
import { LoadError, Skeleton } from '../ui/loading';
import { messageStatusBadge } from '../ui/message-status';
import { MemoryView } from './memory-view';
import { boundMessage, type InspectorTab, useInspector, useInspectorStore, useRevealFromHash } from './store';
import { TechnicalDetails } from './technical-details';
import { TurnView } from './turn-view';

const TABS: Array<{ id: InspectorTab; label: string }> = [
  { id: 'turn', label: 'This reply' },
  { id: 'memory', label: 'Memory' },
];

/**
 * The inspector: what memlens recalled, kept, dropped and sent for one reply (by default the
 * latest; "Inspect" on a reply binds it), and the memory it keeps (summary, facts).
 */
export function Inspector({ conversationId }: { conversationId: string }) {
  const store = useInspectorStore();
  const { inspector: layout } = useShell();
  const ready = useInspector((state) => state.conversationId === conversationId);
  const tab = useInspector((state) => state.tab);
  const chatStatus = useInspector((state) => state.status);
  const messages = useInspector((state) => state.messages);
  const pinnedId = useInspector((state) => state.pinnedId);
  const message = useInspector(boundMessage);
  const baseId = useId();

  const busy = chatStatus === 'submitted' || chatStatus === 'streaming';
  const thisTabStreaming = Boolean(message && busy && messages.at(-1)?.id === message.id);
  const { record, source, query } = useTurnRecord(message, thisTabStreaming);

  useMemoryRefreshAfterTurns(conversationId, chatStatus);
  // A link to a message of this conversation (from a source in another one) scrolls to it.
  useRevealFromHash(ready && messages.length > 0);

  // Jumping to a message from the drawer closes the drawer so the message can be seen.
  const onReveal = useCallback(() => {
    if (layout.drawer) layout.hide();
  }, [layout]);

  const assistants = messages.filter((m) => m.role === 'assistant');
  const index = message ? assistants.findIndex((m) => m.id === message.id) : -1;
  const latest = assistants.at(-1);
  const following = pinnedId === null || pinnedId === latest?.id;

  const selectTab = (next: InspectorTab) => store?.setTab(next);
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const at = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(at + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
    selectTab(next.id);
    document.getElementById(`${baseId}-tab-${next.id}`)?.focus();
  };

  return (
    <div
      data-testid="inspector"
      data-message-id={message?.id ?? ''}
      data-status={record?.status ?? ''}
      data-source={source}
      data-tab={tab}
      className="flex h-full min-h-0 flex-col"
    >
      <div className="flex h-14 shrink-0 items-center gap-2 border-b border-line px-4">
        <span className="grid size-6 place-items-center rounded-md bg-accent-soft text-accent" aria-hidden="true">
          <LensIcon width={14} height={14} />
        </span>
        <h2 className="text-[15px] font-semibold">Inspector</h2>
        <button
          type="button"
          data-testid="inspector-close"
          onClick={layout.hide}
          className="ml-auto rounded-md p-1.5 text-muted hover:bg-subtle hover:text-fg"
          aria-label="Hide the inspector"
          title="Hide the inspector"
        >
          <CloseIcon width={16} height={16} />
        </button>
      </div>

      <div role="tablist" aria-label="Inspector views" className="flex shrink-0 gap-1 border-b border-line px-3" onKeyDown={onTabKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`${baseId}-tab-${t.id}`}
            type="button"
            role="tab"
            data-testid={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`${baseId}-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => selectTab(t.id)}
            className={`-mb-px border-b-2 px-2.5 py-2 text-sm font-medium ${
              tab === t.id ? 'border-accent text-fg' : 'border-transparent text-muted hover:text-fg'
            }`}
          >
            {t.label}
          </button>
        ))}
      </div>

      {tab === 'turn' ? (
        <div role="tabpanel" id={`${baseId}-panel-turn`} aria-labelledby={`${baseId}-tab-turn`} className="flex min-h-0 flex-1 flex-col">
          {!ready ? (
            <Skeleton lines={5} />
          ) : !message ? (
            <EmptyTurn busy={busy} />
          ) : (
            <>
              <BoundHeader
                message={message}
                messages={messages}
                position={index + 1}
                count={assistants.length}
                record={record}
                source={source}
                following={following}
                waiting={chatStatus === 'submitted'}
                onPrevious={index > 0 ? () => store?.pin(assistants[index - 1].id) : undefined}
                onNext={
                  index >= 0 && index < assistants.length - 1
                    ? () => store?.pin(index + 1 === assistants.length - 1 ? null : assistants[index + 1].id)
                    : undefined
                }
                onLatest={() => store?.pin(null)}
              />
              {/* `relative`: screen-reader-only text inside is positioned in here, not against the page (which would scroll). */}
              <div className="relative min-h-0 flex-1 overflow-y-auto" data-testid="turn-view">
                {record ? (
                  <TurnView record={record} onReveal={onReveal} />
                ) : thisTabStreaming ? (
                  <div className="p-4 text-sm text-muted">
                    Assembling the context…
                    <Skeleton lines={4} />
                  </div>
                ) : query.isPending ? (
                  <Skeleton lines={6} />
                ) : query.error instanceof ApiError && query.error.status === 404 ? (
                  <div className="p-4">
                    <Notice testId="no-record">{query.error.message}</Notice>
                  </div>
                ) : query.isError ? (
                  <div className="p-4">
                    <LoadError what="the context" error={query.error} retry={() => void query.refetch()} />
                  </div>
                ) : null}
              </div>
            </>
          )}
        </div>
      ) : (
        <div
          role="tabpanel"
          id={`${baseId}-panel-memory`}
          aria-labelledby={`${baseId}-tab-memory`}
          className="relative min-h-0 flex-1 overflow-y-auto"
        >
          <MemoryView conversationId={conversationId} onReveal={onReveal} />
        </div>
      )}
    </div>
  );
}

/**
 * The turn record of a reply: the one streamed with it while this tab receives it (it arrives
 * before the first word and again, final, before the end), else the stored one from the API.
 */
function useTurnRecord(message: ChatMessage | null, thisTabStreaming: boolean) {
  const live = message ? turnRecordOf(message) : undefined;
  // A streamed record still marked streaming after the stream ended (stopped, cut off) is stale: ask the server.
  const liveUsable = Boolean(live && (live.status !== 'streaming' || thisTabStreaming));
  const storedStreaming = message?.metadata?.status === 'streaming';
  const query = useQuery({
    queryKey: memoryKeys.turn(message?.id ?? 'none'),
    queryFn: () => api.getTurnContext(message!.id),
    enabled: Boolean(message) && !liveUsable && !thisTabStreaming,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
    // A reply still being written elsewhere: re-read until its record is final (for a minute at most).
    refetchInterval: (q) =>
      q.state.dataUpdateCount + q.state.errorUpdateCount < 40 &&
      (q.state.data?.context.status === 'streaming' || (storedStreaming && q.state.status === 'error'))
        ? 1_500
        : false,
    staleTime: 60_000,
  });
  const record: TurnRecord | undefined = liveUsable ? live : (query.data?.context ?? live);
  const source = liveUsable ? 'stream' : query.data ? 'server' : live ? 'stream' : 'none';
  return { record, source, query };
}

/** Facts and summaries are written by post-turn work right after each reply: re-read them then (and the stored records). */
function useMemoryRefreshAfterTurns(conversationId: string, status: string) {
  const queryClient = useQueryClient();
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (!(was === 'streaming' || was === 'submitted') || status === 'streaming' || status === 'submitted') return;
    // A Retry rewrites a reply in place (same id): a record read before it is not the reply's any more.
    void queryClient.invalidateQueries({ queryKey: memoryKeys.turns });
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: memoryKeys.factsAll });
      void queryClient.invalidateQueries({ queryKey: memoryKeys.summary(conversationId) });
    };
    const timers = [400, 1_500, 4_000].map((ms) => window.setTimeout(refresh, ms));
    return () => {
      for (const timer of timers) window.clearTimeout(timer);
    };
  }, [status, conversationId, queryClient]);
}

function BoundHeader({
  message,
  messages,
  position,
  count,
  record,
  source,
  following,
  waiting,
  onPrevious,
  onNext,
  onLatest,
}: {
  message: ChatMessage;
  messages: ChatMessage[];
  position: number;
  count: number;
  record: TurnRecord | undefined;
  source: string;
  following: boolean;
  waiting: boolean;
  onPrevious?: () => void;
  onNext?: () => void;
  onLatest: () => void;
}) {
  const at = messages.findIndex((m) => m.id === message.id);
  const question = record?.question.text ?? [...messages.slice(0, Math.max(0, at))].reverse().find((m) => m.role === 'user');
  const questionText = typeof question === 'string' ? question : question ? textOf(question) : '';
  const badge = record ? messageStatusBadge(record.status) : null;
  const [sourceHelp, setSourceHelp] = useState(false);
  const sourceHelpId = useId();
  return (
    <div className="shrink-0 border-b border-line bg-canvas/60 px-4 py-2.5" data-testid="inspector-bound">
      <div className="flex flex-wrap items-center gap-1.5">
        <button
          type="button"
          onClick={onPrevious}
          disabled={!onPrevious}
          className="rounded p-0.5 text-muted hover:bg-subtle hover:text-fg disabled:opacity-30"
          aria-label="Previous reply"
        >
          <ChevronIcon width={14} height={14} className="rotate-180" />
        </button>
        <span className="text-xs font-medium whitespace-nowrap tabular-nums" aria-live="polite">
          Reply {position} of {count}
        </span>
        <button
          type="button"
          onClick={onNext}
          disabled={!onNext}
          className="rounded p-0.5 text-muted hover:bg-subtle hover:text-fg disabled:opacity-30"
          aria-label="Next reply"
        >
          <ChevronIcon width={14} height={14} />
        </button>
        {badge ? (
          <Badge tone={badge.tone} testId="turn-status">
            {record?.status === 'streaming' ? <span className="size-1.5 animate-pulse rounded-full bg-current" aria-hidden="true" /> : null}
            {badge.label}
          </Badge>
        ) : null}
        {source === 'stream' || source === 'server' ? (
          <span className="inline-flex items-center gap-1">
            <span
              data-testid="record-source"
              className="text-[11px] text-muted"
              title={source === 'stream' ? 'Received with the reply, in this tab' : 'The stored record, read from the server'}
            >
              {source === 'stream' ? 'live' : 'stored'}
            </span>
            <HelpButton
              testId="record-source-help-toggle"
              label="What live and stored mean"
              open={sourceHelp}
              controls={sourceHelpId}
              onToggle={() => setSourceHelp((open) => !open)}
            />
          </span>
        ) : null}
        {following ? (
          <span className="ml-auto text-[11px] whitespace-nowrap text-faint">following the latest</span>
        ) : (
          <button
            type="button"
            data-testid="inspector-latest"
            onClick={onLatest}
            className="ml-auto rounded-md border border-line px-2 py-0.5 text-[11px] font-medium whitespace-nowrap text-muted hover:bg-subtle hover:text-fg"
          >
            Latest reply
          </button>
        )}
      </div>
      <div className="mt-2" hidden={!sourceHelp}>
        <HelpNote id={sourceHelpId} open testId="record-source-help">
          <p>
            <b>live</b>: the record streamed with the reply to this tab. It arrives before the first word (the context as assembled) and
            again, final, when the reply ends (usage, citations, timing).
          </p>
          <p>
            <b>stored</b>: the copy saved with the reply, read back from memlens. It never changes afterwards, except that memory deleted
            since is shown as <b>[redacted]</b>.
          </p>
          <TechnicalDetails>
            <p>The stored record is GET /api/messages/:id/context; the live one is the reply stream&apos;s data-turn part.</p>
          </TechnicalDetails>
        </HelpNote>
      </div>
      {questionText ? (
        <p className="mt-1 line-clamp-2 text-xs text-muted" title={questionText}>
          Answering: <span className="text-fg">“{questionText}”</span>
        </p>
      ) : null}
      {waiting ? (
        <p className="mt-1 text-[11px] text-accent" role="status">
          Sending your message: the new reply appears here as soon as its context is assembled.
        </p>
      ) : null}
    </div>
  );
}

function EmptyTurn({ busy }: { busy: boolean }) {
  return (
    <div className="px-5 py-8 text-center" data-testid="inspector-empty">
      <span className="mx-auto grid size-10 place-items-center rounded-xl bg-accent-soft text-accent" aria-hidden="true">
        <LensIcon width={20} height={20} />
      </span>
      <p className="mt-3 text-sm font-medium">{busy ? 'Assembling the context…' : 'Nothing to inspect yet'}</p>
      <p className="mt-1 text-xs leading-5 text-muted">
        For each reply, the inspector shows the search memlens ran, what it recalled and kept within the token budget, the exact messages
        the model received, and how long each step took.
      </p>
    </div>
  );
}
