'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, conversationsKey } from '../api';
import { LinkOutIcon } from '../icons';
import { SummarySection } from '../inspector/summary-section';
import type { ConversationSummary } from '../types';
import { formatDate, plural } from '../ui/format';
import { LoadError } from '../ui/loading';
import { buttons } from '../ui/styles';
import { Panel } from './panel';

/** Summaries are read a few conversations at a time (one request each). */
const PAGE = 5;

/** Each conversation's rolling summary, with edit and clear (the inspector's summary section, per conversation). */
export function SummariesPanel({ initialConversations }: { initialConversations: ConversationSummary[] }) {
  const [shown, setShown] = useState(PAGE);
  const query = useQuery({
    queryKey: conversationsKey,
    queryFn: api.listConversations,
    initialData: initialConversations,
    initialDataUpdatedAt: 0,
  });
  const conversations = query.data ?? [];

  return (
    <Panel
      id="summaries"
      title="Conversation summaries"
      meta={conversations.length > 0 ? plural(conversations.length, 'conversation') : null}
      description="Once a conversation is long, its older messages are summarised and the newest are sent as written. Each summary says which messages it covers and when its next version comes. Edit it and the next version builds on your text; clear it and later versions cover only newer messages."
    >
      {query.isError && conversations.length === 0 ? (
        <LoadError what="your conversations" error={query.error} retry={() => void query.refetch()} />
      ) : conversations.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-muted" data-testid="summaries-empty">
          No conversations yet, so no summaries.
        </p>
      ) : (
        <>
          <ul className="space-y-2.5" data-testid="summary-list">
            {conversations.slice(0, shown).map((conversation) => (
              <li
                key={conversation.id}
                data-testid="memory-summary"
                data-conversation-id={conversation.id}
                className="overflow-hidden rounded-lg border border-line bg-surface"
              >
                <div className="flex items-center gap-2 border-b border-line bg-subtle/40 px-4 py-2">
                  <h3 className="min-w-0 flex-1 truncate text-sm font-medium" title={conversation.title}>
                    {conversation.title}
                  </h3>
                  <span className="shrink-0 text-xs text-faint">{formatDate(conversation.updatedAt)}</span>
                  <Link
                    href={`/c/${conversation.id}`}
                    className="inline-flex shrink-0 items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-accent hover:bg-accent-soft"
                    aria-label={`Open “${conversation.title}”`}
                  >
                    Open <LinkOutIcon width={12} height={12} />
                  </Link>
                </div>
                <SummarySection conversationId={conversation.id} />
              </li>
            ))}
          </ul>
          {conversations.length > shown ? (
            <div className="mt-3 flex justify-center">
              <button type="button" data-testid="summaries-more" onClick={() => setShown((n) => n + PAGE)} className={buttons.secondary}>
                Show more ({plural(conversations.length - shown, 'more conversation')})
              </button>
            </div>
          ) : null}
        </>
      )}
    </Panel>
  );
}
