import { InspectorIcon, LensIcon } from '../icons';
import { Markdown } from '../markdown';
import { CorrectionsCaption, MarkedText, ReplyMarksNote } from '../message-marks';
import { Badge } from '../ui/badge';
import { formatDateTime } from '../ui/format';
import { MESSAGE_STATUS } from '../ui/message-status';
import { VisibleText } from '../visible-text';
import type { StaffMessage } from './types';

// One message of a conversation as the staff console shows it.

export function StaffMessageView({
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
