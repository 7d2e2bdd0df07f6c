'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { api, conversationsKey } from '../api';
import { formatDate, plural } from '../ui/format';
import { useEndpoints, useMessageLocation, useViewer } from './endpoints';
import { revealMessage, useInspector } from './store';

const OUTSIDE_A_CHAT = 3;

/**
 * Links to the messages an item came from, in words (the ids are in their titles): a click scrolls
 * the chat to a message of this conversation; a message of another conversation is a link that
 * opens it there, named by that conversation's title and date. `max` links at most, then a count.
 */
export function SourceLinks({
  ids,
  onReveal,
  conversationHint,
  max,
}: {
  ids: string[];
  onReveal?: () => void;
  conversationHint?: string | null;
  max?: number;
}) {
  const present = useInspector((state) => state.messages);
  const viewer = useViewer();
  if (ids.length === 0) return <span className="text-xs text-faint">no source messages</span>;
  // Outside a chat (the Memory page) every source is elsewhere: a few links, then a count.
  const shown = max ?? (present.length === 0 ? OUTSIDE_A_CHAT : ids.length);
  const hidden = ids.slice(shown);
  return (
    <span className="inline-flex flex-wrap items-baseline gap-1" data-testid="sources">
      {ids.slice(0, shown).map((id) => {
        const message = present.find((m) => m.id === id);
        if (!message) return <ForeignSource key={id} id={id} conversationHint={conversationHint ?? null} />;
        return (
          <button
            key={id}
            type="button"
            data-testid="source"
            data-message-id={id}
            onClick={() => {
              if (revealMessage(id)) onReveal?.();
            }}
            className="rounded bg-accent-soft px-1 text-[11px] text-accent hover:underline"
            title={`Show this ${message.role === 'user' ? 'message' : 'reply'} in this chat (message ${id})`}
          >
            {message.role === 'user' ? (viewer.audience === 'owner' ? 'your message' : 'user message') : 'reply'}
          </button>
        );
      })}
      {hidden.length > 0 ? (
        <span className="text-[11px] text-muted" title={hidden.map((id) => `message ${id}`).join('\n')}>
          and {plural(hidden.length, 'more message')}
        </span>
      ) : null}
    </span>
  );
}

/** The owner's conversation by id, from the list the sidebar keeps (staff have no such list). */
function useConversationOf(id: string | null) {
  const viewer = useViewer();
  const list = useQuery({
    queryKey: conversationsKey,
    queryFn: api.listConversations,
    enabled: viewer.audience === 'owner' && id !== null,
    staleTime: 60_000,
  });
  return id ? list.data?.find((c) => c.id === id) : undefined;
}

/** A source message in another conversation: where it is comes from GET /api/messages/:id. */
function ForeignSource({ id, conversationHint }: { id: string; conversationHint: string | null }) {
  const location = useMessageLocation(id);
  const { messageHref } = useEndpoints();
  const conversationId = location.data?.conversationId ?? (location.isError && !location.gone ? conversationHint : null);
  const conversation = useConversationOf(conversationId);
  if (conversationId) {
    return (
      <Link
        href={messageHref(conversationId, id)}
        data-testid="source"
        data-message-id={id}
        data-conversation-id={conversationId}
        className="inline-flex min-w-0 max-w-full items-center gap-0.5 rounded bg-subtle px-1 text-[11px] text-accent hover:underline"
        title={`Open this ${location.data?.role === 'assistant' ? 'reply' : 'message'} in its conversation (message ${id})`}
      >
        <span className="truncate">
          {conversation ? `“${conversation.title}” · ${formatDate(conversation.createdAt)}` : 'another conversation'}
        </span>
        <span aria-hidden="true">↗</span>
      </Link>
    );
  }
  return (
    <span
      data-testid="source"
      data-message-id={id}
      className="rounded bg-subtle px-1 text-[11px] text-faint"
      title={
        location.gone
          ? `Message ${id} was not found: deleted since, or not readable here`
          : location.isPending
            ? `Looking up message ${id}…`
            : `Message ${id}`
      }
    >
      {location.gone ? 'a message since deleted' : 'a message'}
    </span>
  );
}
