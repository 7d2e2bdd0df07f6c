'use client';

import Link from 'next/link';
import { shortId } from '../ui/format';
import { useEndpoints, useMessageLocation, useViewer } from './endpoints';
import { revealMessage, useInspector } from './store';

/**
 * Links to the messages an item came from: a click scrolls the chat to a message of this
 * conversation; a message of another conversation is a link that opens it there.
 */
export function SourceLinks({
  ids,
  onReveal,
  conversationHint,
}: {
  ids: string[];
  onReveal?: () => void;
  conversationHint?: string | null;
}) {
  const present = useInspector((state) => state.messages);
  const viewer = useViewer();
  if (ids.length === 0) return <span className="text-xs text-faint">no source messages</span>;
  return (
    <span className="inline-flex flex-wrap gap-1" data-testid="sources">
      {ids.map((id) => {
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
            className="rounded bg-accent-soft px-1 font-mono text-[11px] text-accent hover:underline"
            title={`Show this ${message.role === 'user' ? 'question' : 'reply'} in the chat`}
          >
            {message.role === 'user' ? (viewer.audience === 'owner' ? 'you' : 'user') : 'reply'} · {shortId(id)}
          </button>
        );
      })}
    </span>
  );
}

/** A source message in another conversation: where it is comes from GET /api/messages/:id. */
function ForeignSource({ id, conversationHint }: { id: string; conversationHint: string | null }) {
  const location = useMessageLocation(id);
  const { messageHref } = useEndpoints();
  const conversationId = location.data?.conversationId ?? (location.isError && !location.gone ? conversationHint : null);
  if (conversationId) {
    return (
      <Link
        href={messageHref(conversationId, id)}
        data-testid="source"
        data-message-id={id}
        data-conversation-id={conversationId}
        className="inline-flex items-center gap-0.5 rounded bg-subtle px-1 font-mono text-[11px] text-accent hover:underline"
        title={`Open this ${location.data?.role === 'assistant' ? 'reply' : 'message'} in its conversation`}
      >
        other chat · {shortId(id)}
        <span aria-hidden="true">↗</span>
      </Link>
    );
  }
  return (
    <span
      data-testid="source"
      data-message-id={id}
      className="rounded bg-subtle px-1 font-mono text-[11px] text-faint"
      title={
        location.gone
          ? `Message ${id} was not found: deleted since, or not readable here`
          : location.isPending
            ? `Looking up message ${id}…`
            : `Message ${id}`
      }
    >
      {shortId(id)}
    </span>
  );
}
