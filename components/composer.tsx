'use client';

import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { SendIcon, StopIcon } from './icons';

/** Grows a textarea with its content, up to its CSS max-height. */
export function useAutosize(ref: React.RefObject<HTMLTextAreaElement | null>, value: string) {
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
  busy,
  onSubmit,
  onStop,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  maxChars: number;
  busy: boolean;
  onSubmit: () => void;
  onStop: () => void;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const errorId = useId();
  const hintId = useId();
  useAutosize(ref, value);

  useEffect(() => {
    ref.current?.focus();
  }, []);

  const over = value.length > maxChars;
  const showCount = value.length > maxChars * 0.8;

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
          placeholder="Message memlens…"
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => submitOnEnter(event, onSubmit)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          className="block max-h-60 w-full resize-none bg-transparent px-4 pt-3.5 pb-1 text-[15px] leading-6 placeholder:text-faint focus:outline-none"
        />
        <div className="flex items-center justify-between gap-3 px-3 pb-2.5 pl-4">
          <span id={hintId} className="hidden text-xs text-faint sm:inline">
            Enter to send · Shift+Enter for a new line
          </span>
          <div className="ml-auto flex items-center gap-3">
            {showCount ? (
              <span className={`text-xs tabular-nums ${over ? 'font-medium text-danger' : 'text-faint'}`} data-testid="char-count">
                {value.length.toLocaleString('en-US')} / {maxChars.toLocaleString('en-US')}
              </span>
            ) : null}
            {busy ? (
              <button
                type="button"
                data-testid="stop"
                onClick={onStop}
                className="inline-flex items-center gap-1.5 rounded-xl border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:bg-subtle"
              >
                <StopIcon />
                Stop
              </button>
            ) : (
              <button
                type="submit"
                data-testid="send"
                disabled={value.trim() === '' || over}
                className="inline-flex items-center gap-1.5 rounded-xl bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:bg-accent-hover disabled:cursor-not-allowed disabled:opacity-40"
              >
                <SendIcon />
                Send
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
