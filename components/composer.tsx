'use client';

import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { SendIcon, StopIcon } from './icons';

// A message typed on the home page travels to its new conversation's page through sessionStorage
// (a URL would be too short for a long message); the chat sends it once and forgets it.
const FIRST_MESSAGE_KEY = (conversationId: string) => `memlens:first-message:${conversationId}`;

/** Keeps a new conversation's first message for its page to send; false when storage is unavailable. */
export function stashFirstMessage(conversationId: string, text: string): boolean {
  try {
    window.sessionStorage.setItem(FIRST_MESSAGE_KEY(conversationId), text);
    return true;
  } catch {
    return false;
  }
}

/** The first message stashed for this conversation, removed as it is taken (so it is sent once). */
export function takeFirstMessage(conversationId: string): string | null {
  try {
    const key = FIRST_MESSAGE_KEY(conversationId);
    const text = window.sessionStorage.getItem(key);
    if (text !== null) window.sessionStorage.removeItem(key);
    return text;
  } catch {
    return null;
  }
}

/** Grows a textarea with its content, up to its CSS max-height. */
export function useAutosize(ref: React.RefObject<HTMLTextAreaElement | null>, value: string) {
  // biome-ignore lint/correctness/useExhaustiveDependencies(value): the new text is what changes the height to measure
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [ref, value]);
}

/** Enter submits, Shift+Enter adds a line; never while an IME is composing. */
export function submitOnEnter(event: KeyboardEvent<HTMLTextAreaElement>, submit: () => void) {
  if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
    event.preventDefault();
    submit();
  }
}

export function Composer({
  value,
  onChange,
  error,
  maxChars,
  tokens,
  busy,
  onSubmit,
  onStop,
  placeholder = 'Message memlens…',
  sendLabel = 'Send',
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  maxChars: number;
  /** The message's tokens as the server counts them (null: too short to be over) and the server's limit. */
  tokens?: { count: number | null; max: number };
  busy: boolean;
  onSubmit: () => void;
  /** Stops the reply in flight; without it, `busy` only disables sending (e.g. while a conversation is created). */
  onStop?: () => void;
  placeholder?: string;
  sendLabel?: string;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const errorId = useId();
  const hintId = useId();
  useAutosize(ref, value);

  useEffect(() => {
    ref.current?.focus();
  }, []);

  const tokenCount = tokens?.count ?? null;
  const over = value.length > maxChars || (tokens !== undefined && tokenCount !== null && tokenCount > tokens.max);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
        ref.current?.focus();
      }}
      aria-label="Send a message"
    >
      <div
        className={`rounded-2xl border bg-surface shadow-sm transition-colors focus-within:shadow-md ${
          error ? 'border-danger/60' : 'border-line focus-within:border-accent/50'
        }`}
      >
        <label htmlFor="composer" className="sr-only">
          Message
        </label>
        <textarea
          id="composer"
          ref={ref}
          data-testid="composer"
          rows={1}
          value={value}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => submitOnEnter(event, onSubmit)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          className="block max-h-60 w-full resize-none bg-transparent px-4 pt-3.5 pb-1 text-[15px] leading-6 placeholder:text-faint focus:outline-none"
        />
        <div className="flex items-center justify-between gap-3 px-3 pb-2.5 pl-4">
          <span id={hintId} className="hidden text-xs text-faint sm:inline" data-testid="composer-hint">
            {busy && onStop ? 'Esc to stop the reply' : 'Enter to send · Shift+Enter for a new line'}
          </span>
          <div className="ml-auto flex items-center gap-3">
            {tokens && tokenCount !== null && tokenCount > tokens.max * 0.8 ? (
              <span className={`text-xs tabular-nums ${over ? 'font-medium text-danger' : 'text-faint'}`} data-testid="token-count">
                {tokenCount.toLocaleString('en-US')} / {tokens.max.toLocaleString('en-US')} tokens
              </span>
            ) : value.length > maxChars * 0.8 ? (
              <span className={`text-xs tabular-nums ${over ? 'font-medium text-danger' : 'text-faint'}`} data-testid="char-count">
                {value.length.toLocaleString('en-US')} / {maxChars.toLocaleString('en-US')}
              </span>
            ) : null}
            {busy && onStop ? (
              <button
                key="stop"
                type="button"
                data-testid="stop"
                onClick={onStop}
                title="Stop the reply (Esc)"
                aria-keyshortcuts="Escape"
                className="inline-flex items-center gap-1.5 rounded-xl border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:bg-subtle"
              >
                <StopIcon />
                Stop
              </button>
            ) : (
              <button
                key="send"
                type="submit"
                data-testid="send"
                disabled={value.trim() === '' || over || busy}
                className="inline-flex items-center gap-1.5 rounded-xl bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:bg-accent-hover disabled:cursor-not-allowed disabled:opacity-40"
              >
                <SendIcon />
                {sendLabel}
              </button>
            )}
          </div>
        </div>
      </div>
      {error ? (
        <p id={errorId} role="alert" data-testid="composer-error" className="mt-2 px-1 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </form>
  );
}
