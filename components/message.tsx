'use client';

import { useEffect, useRef, useState } from 'react';
import { submitOnEnter, useAutosize } from './composer';
import { CheckIcon, CopyIcon, InspectorIcon, LensIcon, PencilIcon, RetryIcon, TrashIcon } from './icons';
import { Markdown, type OnCite } from './markdown';
import { MemoryNotice } from './memory-notice';
import { CorrectionsCaption, MarkedText, ReplyMarksNote } from './message-marks';
import { useMessageTokens } from './message-tokens';
import { type ChatMessage, type MessageStatus, type ModelInfo, textOf, validateMessage } from './types';

type Props = {
  message: ChatMessage;
  status: MessageStatus;
  /** This tab is receiving the reply right now. */
  live: boolean;
  editing: boolean;
  canEdit: boolean;
  canRetry: boolean;
  /** The server's limits on a message (an edit is a new message). */
  model: ModelInfo;
  onEdit: () => void;
  onCancelEdit: () => void;
  onSaveEdit: (text: string) => void;
  onRetry: () => void;
  /** Asks to delete this message (a dialog confirms); absent while it cannot be deleted. */
  onDelete?: () => void;
  /** Shows this reply in the inspector (assistant messages, on pages with an inspector). */
  onInspect?: () => void;
  /** The inspector is showing this reply. */
  inspected?: boolean;
  /** A click on `[n]` in a reply: show that item of its context in the inspector. */
  onCite?: OnCite;
};

export function MessageView(props: Props) {
  const { message, status } = props;
  return (
    <article
      id={`message-${message.id}`}
      data-testid="message"
      data-role={message.role}
      data-status={status}
      data-message-id={message.id}
      data-inspected={props.inspected ? 'true' : undefined}
      aria-label={message.role === 'user' ? 'You said' : 'memlens replied'}
      className="group/message scroll-mt-4 rounded-xl transition-shadow data-[flash=true]:ring-2 data-[flash=true]:ring-accent/60 data-[flash=true]:ring-offset-4 data-[flash=true]:ring-offset-canvas"
    >
      {message.role === 'user' ? <UserMessage {...props} /> : <AssistantMessage {...props} />}
    </article>
  );
}

function UserMessage({ message, editing, canEdit, canRetry, model, onEdit, onCancelEdit, onSaveEdit, onRetry, onDelete }: Props) {
  const text = textOf(message);
  const marks = message.metadata?.marks;
  if (editing) return <EditForm initial={text} model={model} onCancel={onCancelEdit} onSave={onSaveEdit} />;
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="max-w-[85%] rounded-2xl rounded-br-md bg-bubble px-4 py-2.5 text-[15px] leading-7 break-words whitespace-pre-wrap">
        <span data-testid="message-text" data-marks={marks?.length || undefined}>
          {marks?.length ? <MarkedText text={text} marks={marks} /> : text}
        </span>
      </div>
      <CorrectionsCaption marks={marks} />
      <div className="flex items-center gap-1">
        {canRetry ? (
          <>
            <span className="text-xs text-muted">No reply yet.</span>
            <RetryButton onRetry={onRetry} />
          </>
        ) : null}
        <button
          type="button"
          data-testid="edit"
          onClick={onEdit}
          disabled={!canEdit}
          className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs text-faint opacity-0 group-focus-within/message:opacity-100 group-hover/message:opacity-100 hover:bg-subtle hover:text-fg focus-visible:opacity-100 disabled:hidden [@media(hover:none)]:opacity-100"
          aria-label="Edit message"
        >
          <PencilIcon width={13} height={13} />
          Edit
        </button>
        {onDelete ? <DeleteButton onDelete={onDelete} /> : null}
      </div>
    </div>
  );
}

function EditForm({
  initial,
  model,
  onCancel,
  onSave,
}: {
  initial: string;
  model: ModelInfo;
  onCancel: () => void;
  onSave: (text: string) => void;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const tokens = useMessageTokens(value, model);
  const ref = useRef<HTMLTextAreaElement>(null);
  useAutosize(ref, value);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);

  const save = () => {
    const problem = validateMessage(value, model, tokens);
    if (problem) {
      setError(problem);
      return;
    }
    onSave(value);
  };

  return (
    <form
      className="ml-auto w-full max-w-[85%] rounded-2xl border border-accent/40 bg-surface p-3 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <label className="sr-only" htmlFor="edit-message">
        Edit your message
      </label>
      <textarea
        id="edit-message"
        ref={ref}
        data-testid="edit-input"
        value={value}
        rows={1}
        onChange={(event) => {
          setValue(event.target.value);
          if (error) setError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onCancel();
          } else submitOnEnter(event, save);
        }}
        aria-invalid={error ? true : undefined}
        className="block max-h-72 w-full resize-none bg-transparent px-1 text-[15px] leading-7 focus:outline-none"
      />
      {error ? (
        <p role="alert" className="mt-1 px-1 text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div className="mt-2 flex items-center justify-end gap-2">
        <span className="mr-auto px-1 text-xs text-faint">Saving replaces the answer and everything after it.</span>
        <button type="button" onClick={onCancel} className="rounded-lg px-3 py-1.5 text-sm font-medium hover:bg-subtle">
          Cancel
        </button>
        <button
          type="submit"
          data-testid="save-edit"
          className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:bg-accent-hover"
        >
          Save &amp; regenerate
        </button>
      </div>
    </form>
  );
}

function AssistantMessage({ message, status, live, canRetry, onRetry, onInspect, inspected, onCite, onDelete }: Props) {
  const text = textOf(message);
  const error = message.metadata?.error;
  return (
    <div className="flex gap-3">
      <span className="mt-0.5 grid size-7 shrink-0 place-items-center rounded-lg bg-accent-soft text-accent" aria-hidden="true">
        <LensIcon width={15} height={15} />
      </span>
      <div className="min-w-0 flex-1">
        <div data-testid="message-text" className={live ? 'streaming-caret' : undefined}>
          {text ? (
            <Markdown text={text} messageId={message.id} onCite={onCite} />
          ) : live ? (
            // The reply has started (its context is being gathered) but has no words yet.
            <span className="mt-0.5 flex h-7 items-center" data-testid="thinking">
              <TypingDots />
            </span>
          ) : status === 'streaming' ? null : (
            <p className="text-[15px] leading-7 text-faint italic">No text was generated.</p>
          )}
        </div>

        {text && message.metadata?.marks?.length ? <ReplyMarksNote text={text} marks={message.metadata.marks} /> : null}
        {status === 'complete' && !live ? <MemoryNotice replyId={message.id} /> : null}

        {status === 'streaming' && !live ? (
          <p className="mt-2 flex items-center gap-2 text-xs text-muted" data-testid="message-status">
            <Spinner /> Still being written…
          </p>
        ) : null}

        {status === 'incomplete' ? (
          <div className="mt-2 flex flex-wrap items-center gap-2 text-xs">
            <span
              data-testid="message-status"
              className="inline-flex items-center rounded-full border border-warn/30 bg-warn-soft px-2 py-0.5 font-medium text-warn"
            >
              Stopped
            </span>
            {error ? <span className="text-muted">{error}</span> : null}
            {canRetry ? <RetryButton onRetry={onRetry} /> : null}
          </div>
        ) : null}

        {status === 'failed' ? (
          <div className="mt-2 rounded-xl border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger" role="alert">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span data-testid="message-status" className="font-medium">
                The reply failed
              </span>
              <span data-testid="message-error" className="min-w-0 break-words">
                {error || 'The model did not answer.'}
              </span>
              {canRetry ? <RetryButton onRetry={onRetry} className="ml-auto" /> : null}
            </div>
          </div>
        ) : null}

        {(status === 'complete' && text) || onInspect || onDelete ? (
          <div className="mt-1 flex items-center gap-1">
            {onInspect ? <InspectButton inspected={Boolean(inspected)} onInspect={onInspect} /> : null}
            {status === 'complete' && text ? (
              <span className="opacity-0 group-focus-within/message:opacity-100 group-hover/message:opacity-100 [@media(hover:none)]:opacity-100">
                <CopyButton text={text} />
              </span>
            ) : null}
            {onDelete ? <DeleteButton onDelete={onDelete} /> : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}

function InspectButton({ inspected, onInspect }: { inspected: boolean; onInspect: () => void }) {
  return (
    <button
      type="button"
      data-testid="inspect"
      onClick={onInspect}
      aria-pressed={inspected}
      title="Show what memlens remembered, kept and sent for this reply"
      className={`inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs ${
        inspected
          ? 'bg-accent-soft text-accent'
          : 'text-faint opacity-0 group-focus-within/message:opacity-100 group-hover/message:opacity-100 hover:bg-subtle hover:text-fg focus-visible:opacity-100 [@media(hover:none)]:opacity-100'
      }`}
    >
      <InspectorIcon width={13} height={13} />
      {inspected ? 'Inspecting' : 'Inspect'}
    </button>
  );
}

function DeleteButton({ onDelete }: { onDelete: () => void }) {
  return (
    <button
      type="button"
      data-testid="delete-message"
      onClick={onDelete}
      title="Delete this message, with what memlens learned only from it"
      className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs text-faint opacity-0 group-focus-within/message:opacity-100 group-hover/message:opacity-100 hover:bg-danger-soft hover:text-danger focus-visible:opacity-100 [@media(hover:none)]:opacity-100"
    >
      <TrashIcon width={13} height={13} />
      Delete
    </button>
  );
}

function RetryButton({ onRetry, className = '' }: { onRetry: () => void; className?: string }) {
  return (
    <button
      type="button"
      data-testid="retry"
      onClick={onRetry}
      className={`inline-flex items-center gap-1 rounded-md border border-line bg-surface px-2 py-1 text-xs font-medium text-fg hover:bg-subtle ${className}`}
    >
      <RetryIcon width={13} height={13} />
      Retry
    </button>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setCopied(true));
      }}
      className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs text-faint hover:bg-subtle hover:text-fg"
      aria-label={copied ? 'Copied' : 'Copy reply'}
    >
      {copied ? <CheckIcon width={13} height={13} /> : <CopyIcon width={13} height={13} />}
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

function Spinner() {
  return <span className="size-3 animate-spin rounded-full border-2 border-current border-r-transparent" aria-hidden="true" />;
}

export function ThinkingIndicator() {
  return (
    <div className="flex items-center gap-3" data-testid="thinking">
      <span className="grid size-7 shrink-0 place-items-center rounded-lg bg-accent-soft text-accent" aria-hidden="true">
        <LensIcon width={15} height={15} />
      </span>
      <TypingDots />
    </div>
  );
}

function TypingDots() {
  return (
    <span className="flex gap-1" aria-label="memlens is thinking" role="status">
      <span className="typing-dot size-1.5 rounded-full bg-muted" />
      <span className="typing-dot size-1.5 rounded-full bg-muted" />
      <span className="typing-dot size-1.5 rounded-full bg-muted" />
    </span>
  );
}
