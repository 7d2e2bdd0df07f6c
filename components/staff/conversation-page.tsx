'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../http';
import { ChevronIcon, CloseIcon, InspectorIcon, LensIcon } from '../icons';
import { InspectorEndpointsProvider, staffEndpoints, turnKey, useEndpoints } from '../inspector/endpoints';
import { InspectorStoreProvider, useInspectorStore, useRevealFromHash } from '../inspector/store';
import { TurnView } from '../inspector/turn-view';
import { Markdown } from '../markdown';
import { CorrectionsCaption, MarkedText, ReplyMarksNote } from '../message-marks';
import { type ChatMessage, toChatMessage } from '../types';
import { Badge, Notice, StatusLine } from '../ui/badge';
import { Card } from '../ui/card';
import { formatDateTime, plural } from '../ui/format';
import { Empty, Loaded, Skeleton } from '../ui/loading';
import { MESSAGE_STATUS } from '../ui/message-status';
import { buttons } from '../ui/styles';
import { VisibleText } from '../visible-text';
import { staffApi, staffKeys } from './api';
import { ReasonDialog } from './reason-dialog';
import type { ConversationDetail, StaffMessage, StaffSummary, UserOverview } from './types';

const MESSAGES_HELP = (
  <>
    <p>
      The messages exactly as the user wrote them and memlens answered; nothing here can be changed. A <b>forgotten</b> part (struck
      through) is no longer sent to the model, because a fact it stated was deleted; a <b>corrected</b> part (dotted underline) is sent with
      the correction.
    </p>
    <p>
      <b>Turn record</b> on a reply shows the context assembled for it: the search, what was recalled, what the token budget kept and
      dropped, the exact messages sent to the model, and the timing. It is the user&apos;s inspector, read-only. A <b>[n]</b> in a reply
      opens the memory item it cites.
    </p>
  </>
);

const SUMMARY_HELP = (
  <>
    <p>
      The rolling summary stands in for the older messages that the recent window no longer sends. <b>Version</b> goes up with every
      refresh, edit or clear. <b>Covers</b>: how many of the oldest messages it stands for.
    </p>
    <p>
      <b>Clear</b> empties it and sets a clear point: later refreshes only cover messages written after it, so what was cleared never comes
      back. The earlier exchanges can still be recalled on their own. Clearing is written to the audit log with your reason.
    </p>
  </>
);

/** /staff/conversations/:id: any conversation, read-only; each reply's turn record; the summary with Clear. */
export function ConversationPage({ conversationId, initialTurn }: { conversationId: string; initialTurn: string | null }) {
  return (
    <InspectorStoreProvider>
      <Conversation conversationId={conversationId} initialTurn={initialTurn} />
    </InspectorStoreProvider>
  );
}

function Conversation({ conversationId, initialTurn }: { conversationId: string; initialTurn: string | null }) {
  const detail = useQuery({
    queryKey: staffKeys.conversation(conversationId),
    queryFn: () => staffApi.conversation(conversationId),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });
  const [turn, setTurnState] = useState<string | null>(initialTurn);
  const store = useInspectorStore();

  const chatMessages = useMemo<ChatMessage[]>(
    () => (detail.data?.messages ?? []).map((m) => toChatMessage({ ...m, createdAt: m.createdAt, marks: m.marks })),
    [detail.data],
  );
  // The turn view's source links reveal messages of this conversation on this page (components/inspector/ui.tsx).
  useEffect(() => {
    if (detail.data) store?.publish(conversationId, chatMessages, 'ready');
  }, [store, conversationId, chatMessages, detail.data]);
  // `#message-<id>` (from a fact's "learned in" link) scrolls to that message and flashes it.
  useRevealFromHash(Boolean(detail.data));

  const setTurn = useCallback(
    (messageId: string | null) => {
      setTurnState(messageId);
      if (messageId) store?.pin(messageId);
      const url = new URL(window.location.href);
      if (messageId) url.searchParams.set('turn', messageId);
      else url.searchParams.delete('turn');
      window.history.replaceState(window.history.state, '', url);
    },
    [store],
  );

  if (detail.error instanceof ApiError && detail.error.status === 404) {
    return (
      <Empty title="No such conversation" testId="conversation-missing">
        There is no conversation with the id <span className="font-mono">{conversationId}</span>: it may have been deleted by its user.
      </Empty>
    );
  }

  return (
    <Loaded query={detail} what="the conversation" lines={8}>
      {(data) => (
        <InspectorEndpointsProvider endpoints={staffEndpoints(data.conversation.userId)}>
          <ConversationView
            data={data}
            turn={turn && data.messages.some((m) => m.id === turn && m.role === 'assistant') ? turn : null}
            onTurn={setTurn}
            onCite={(messageId, n) => {
              setTurn(messageId);
              store?.focusItem(messageId, { n });
            }}
          />
        </InspectorEndpointsProvider>
      )}
    </Loaded>
  );
}

function ConversationView({
  data,
  turn,
  onTurn,
  onCite,
}: {
  data: ConversationDetail;
  turn: string | null;
  onTurn: (messageId: string | null) => void;
  onCite: (messageId: string, n: number) => void;
}) {
  const { conversation, messages, summary } = data;
  const replies = messages.filter((m) => m.role === 'assistant');
  const queryClient = useQueryClient();
  // The owner's email, when their page was opened before (no extra read of their data just for a label).
  const owner = queryClient.getQueryData<UserOverview>(staffKeys.user(conversation.userId))?.user;

  return (
    <div className="space-y-6" data-testid="staff-conversation" data-conversation-id={conversation.id}>
      <div>
        <Link
          href={`/staff/users/${conversation.userId}`}
          data-testid="conversation-owner"
          className="inline-flex max-w-full items-center gap-1 text-sm text-muted hover:text-fg"
        >
          <ChevronIcon width={14} height={14} className="shrink-0 rotate-180" />
          <span className="truncate">{owner?.email ?? owner?.displayName ?? `User ${conversation.userId.slice(0, 8)}`}</span>
        </Link>
        <h1 className="mt-1 text-xl font-semibold tracking-tight break-words sm:text-2xl" data-testid="staff-conversation-title">
          {conversation.title}
        </h1>
        <p className="mt-1 text-sm text-muted">
          {plural(messages.length, 'message')} · started {formatDateTime(conversation.createdAt)} · last active{' '}
          {formatDateTime(conversation.updatedAt)}
        </p>
      </div>

      <div className={`grid gap-6 ${turn ? 'lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] xl:grid-cols-[minmax(0,1fr)_30rem]' : ''}`}>
        <div className="min-w-0 space-y-6">
          <SummaryCard conversationId={conversation.id} userId={conversation.userId} summary={summary} />
          <Card
            title="Messages"
            meta={replies.length ? plural(replies.length, 'reply', 'replies') : undefined}
            help={MESSAGES_HELP}
            description="Read-only. Open a reply’s turn record to see the context it was given."
            testId="staff-messages"
          >
            {messages.length === 0 ? (
              <Empty title="No messages" testId="messages-empty">
                The conversation exists but nothing has been written in it yet.
              </Empty>
            ) : (
              <ol className="space-y-6 pt-2" aria-label="Messages">
                {messages.map((message) => (
                  <li key={message.id}>
                    <StaffMessageView
                      message={message}
                      selected={turn === message.id}
                      onTurn={() => onTurn(turn === message.id ? null : message.id)}
                      onCite={onCite}
                    />
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </div>
        {turn ? <TurnPanel key={turn} messageId={turn} replies={replies} onTurn={onTurn} /> : null}
      </div>
    </div>
  );
}

function StaffMessageView({
  message,
  selected,
  onTurn,
  onCite,
}: {
  message: StaffMessage;
  selected: boolean;
  onTurn: () => void;
  onCite: (messageId: string, n: number) => void;
}) {
  // A complete message needs no badge in the transcript.
  const status = message.status === 'complete' ? null : MESSAGE_STATUS[message.status];
  return (
    <article
      id={`message-${message.id}`}
      data-testid="message"
      data-role={message.role}
      data-status={message.status}
      data-message-id={message.id}
      aria-label={message.role === 'user' ? 'The user said' : 'memlens replied'}
      className="scroll-mt-20 rounded-xl transition-shadow data-[flash=true]:ring-2 data-[flash=true]:ring-accent/60 data-[flash=true]:ring-offset-4 data-[flash=true]:ring-offset-surface"
    >
      {message.role === 'user' ? (
        <div className="flex flex-col items-end gap-1">
          <div className="max-w-[85%] rounded-2xl rounded-br-md bg-bubble px-4 py-2.5 text-[15px] leading-7 break-words whitespace-pre-wrap">
            <span data-testid="message-text" data-marks={message.marks.length || undefined}>
              {message.marks.length ? (
                <MarkedText text={message.content} marks={message.marks} showInvisible />
              ) : (
                <VisibleText text={message.content} />
              )}
            </span>
          </div>
          <CorrectionsCaption marks={message.marks} />
          <time dateTime={message.createdAt} className="text-[11px] text-faint">
            {formatDateTime(message.createdAt)}
          </time>
        </div>
      ) : (
        <div className={`flex gap-3 rounded-xl ${selected ? 'bg-accent-soft/40 p-2 -m-2 ring-1 ring-accent/30' : ''}`}>
          <span className="mt-0.5 grid size-7 shrink-0 place-items-center rounded-lg bg-accent-soft text-accent" aria-hidden="true">
            <LensIcon width={15} height={15} />
          </span>
          <div className="min-w-0 flex-1">
            <div data-testid="message-text">
              {message.content ? (
                <Markdown text={message.content} messageId={message.id} onCite={onCite} showInvisible />
              ) : (
                <p className="text-[15px] leading-7 text-faint italic">No text was generated.</p>
              )}
            </div>
            {message.content && message.marks.length ? <ReplyMarksNote text={message.content} marks={message.marks} /> : null}
            {message.status === 'failed' && message.error ? (
              <p className="mt-2 rounded-lg border border-danger/30 bg-danger-soft px-2.5 py-1.5 text-xs text-danger">
                The model failed: {message.error}
              </p>
            ) : null}
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <button
                type="button"
                data-testid="open-turn"
                aria-pressed={selected}
                onClick={onTurn}
                className={`inline-flex items-center gap-1.5 rounded-md border px-2 py-1 text-xs font-medium ${
                  selected ? 'border-accent/40 bg-accent-soft text-accent' : 'border-line text-muted hover:bg-subtle hover:text-fg'
                }`}
              >
                <InspectorIcon width={13} height={13} />
                {selected ? 'Hide turn record' : 'Turn record'}
              </button>
              {status ? <Badge tone={status.tone}>{status.label}</Badge> : null}
              <span className="text-[11px] text-faint">
                <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                {message.model ? <> · {message.model}</> : null}
              </span>
            </div>
          </div>
        </div>
      )}
    </article>
  );
}

/** A reply's turn record, read-only: a column beside the messages on a wide screen, the whole screen on a phone. */
function TurnPanel({
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

function describeUpdater(updatedBy: string, ownerId: string): string {
  if (updatedBy === 'system') return 'memlens (automatic refresh)';
  if (updatedBy === `user:${ownerId}` || updatedBy === 'user') return 'the user';
  if (updatedBy.startsWith('user:')) return `staff ${updatedBy.slice(5, 13)}`;
  return updatedBy;
}

function SummaryCard({ conversationId, userId, summary }: { conversationId: string; userId: string; summary: StaffSummary | null }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const clear = useMutation({
    mutationFn: (reason: string) => staffApi.clearSummary(conversationId, reason),
    onSuccess: () => {
      setConfirming(false);
      setDone(true);
      void queryClient.invalidateQueries({ queryKey: staffKeys.conversation(conversationId) });
      void queryClient.invalidateQueries({ queryKey: ['staff', 'audit'] });
    },
  });
  const empty = !summary || summary.content.trim() === '';
  return (
    <Card
      title="Summary"
      meta={summary ? `v${summary.version} · covers ${plural(summary.coveredMessageCount, 'message')}` : undefined}
      help={SUMMARY_HELP}
      testId="staff-summary"
      actions={
        !empty ? (
          <button
            type="button"
            data-testid="clear-summary"
            onClick={() => {
              clear.reset();
              setConfirming(true);
            }}
            className={buttons.secondary}
          >
            Clear summary
          </button>
        ) : null
      }
    >
      {done ? (
        <div className="mb-3">
          <StatusLine testId="summary-cleared">
            Summary cleared.{' '}
            <Link href={`/staff/audit?targetUserId=${userId}&objectType=summary`} className="font-medium underline underline-offset-2">
              See it in the audit log
            </Link>
          </StatusLine>
        </div>
      ) : null}
      {!summary ? (
        <p className="text-sm text-muted" data-testid="summary-none">
          No summary yet: a conversation gets one once it is long enough (10 messages by default), covering its older messages.
        </p>
      ) : empty ? (
        <p className="text-sm text-muted" data-testid="summary-empty">
          Empty: cleared by {describeUpdater(summary.updatedBy, userId)} on {formatDateTime(summary.updatedAt)}. Only messages written since
          will be summarised.
        </p>
      ) : (
        <>
          <p className="text-sm leading-6 whitespace-pre-wrap" data-testid="summary-content">
            <VisibleText text={summary.content} />
          </p>
          <p className="mt-2 text-xs text-muted">
            Last updated by {describeUpdater(summary.updatedBy, userId)} on {formatDateTime(summary.updatedAt)}.
          </p>
        </>
      )}
      <ReasonDialog
        open={confirming}
        testId="clear-summary-dialog"
        tone="danger"
        title="Clear this summary?"
        description="It becomes empty, and later refreshes only cover messages written after now, so what it said is never summarised again."
        confirmLabel="Clear summary"
        busy={clear.isPending}
        error={clear.error?.message ?? null}
        onCancel={() => setConfirming(false)}
        onConfirm={({ reason }) => clear.mutate(reason)}
      />
    </Card>
  );
}
