'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../http';
import { ChevronIcon } from '../icons';
import { InspectorEndpointsProvider } from '../inspector/endpoints';
import { InspectorStoreProvider, useInspectorStore, useRevealFromHash } from '../inspector/store';
import { type ChatMessage, toChatMessage } from '../types';
import { Card } from '../ui/card';
import { formatDateTime, plural } from '../ui/format';
import { Empty, Loaded } from '../ui/loading';
import { staffApi, staffKeys } from './api';
import { staffEndpoints } from './inspector-endpoints';
import { StaffMessageView } from './staff-message';
import { SummaryCard } from './summary-card';
import { TurnPanel } from './turn-panel';
import type { ConversationDetail } from './types';

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

/** /staff/conversations/:id: any conversation, read-only; each reply's turn record; the summary with Clear. */
export function ConversationPage({ conversationId, initialTurn }: { conversationId: string; initialTurn: string | null }) {
  return (
    <InspectorStoreProvider>
      <Conversation conversationId={conversationId} initialTurn={initialTurn} />
    </InspectorStoreProvider>
  );
}

function Conversation({ conversationId, initialTurn }: { conversationId: string; initialTurn: string | null }) {
  // One view: the page as opened, then each turn record opened on it; the reads of a view are audited once.
  const [view, setView] = useState(() => crypto.randomUUID());
  const detail = useQuery({
    queryKey: staffKeys.conversation(conversationId),
    queryFn: () => staffApi.conversation(conversationId, view),
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
      if (messageId) setView(crypto.randomUUID());
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
        <InspectorEndpointsProvider endpoints={staffEndpoints(data.conversation.userId, view)}>
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
  const { conversation, owner, messages, summary } = data;
  const replies = messages.filter((m) => m.role === 'assistant');

  return (
    <div className="space-y-6" data-testid="staff-conversation" data-conversation-id={conversation.id}>
      <div>
        <Link
          href={`/staff/users/${conversation.userId}`}
          data-testid="conversation-owner"
          className="inline-flex max-w-full items-center gap-1 text-sm text-muted hover:text-fg"
        >
          <ChevronIcon width={14} height={14} className="shrink-0 rotate-180" />
          <span className="truncate">{owner.email ?? owner.name ?? `${owner.kind} ${conversation.userId.slice(0, 8)}`}</span>
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
