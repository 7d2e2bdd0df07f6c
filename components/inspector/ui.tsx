'use client';

import { Fragment, useId, useState, type ReactNode } from 'react';
import { ChevronIcon } from '../icons';
import { revealMessage, useInspector } from './store';
import { REDACTED } from './types';

// Small building blocks shared by the inspector's sections.

/** A titled, collapsible section; `testId` names it for tests and is its anchor. */
export function Section({
  testId,
  title,
  meta,
  defaultOpen = true,
  children,
}: {
  testId: string;
  title: string;
  /** A one-line digest shown next to the title (visible even when collapsed). */
  meta?: ReactNode;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  return (
    <section data-testid={testId} data-open={open} aria-label={title} className="border-b border-line last:border-b-0">
      <h3>
        <button
          type="button"
          data-testid={`${testId}-toggle`}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full items-center gap-2 px-4 py-2.5 text-left hover:bg-subtle/60"
        >
          <ChevronIcon width={14} height={14} className={`shrink-0 text-faint transition-transform ${open ? 'rotate-90' : ''}`} />
          <span className="text-xs font-semibold tracking-wide text-fg uppercase">{title}</span>
          {meta ? <span className="ml-auto min-w-0 truncate text-xs text-muted">{meta}</span> : null}
        </button>
      </h3>
      <div id={bodyId} hidden={!open} className="px-4 pt-0.5 pb-4">
        {open ? children : null}
      </div>
    </section>
  );
}

/** A disclosure inside a section (e.g. the budget's decision table). */
export function Disclosure({
  testId,
  label,
  defaultOpen = false,
  children,
}: {
  testId: string;
  label: ReactNode;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  return (
    <div data-testid={testId} data-open={open}>
      <button
        type="button"
        data-testid={`${testId}-toggle`}
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex items-center gap-1 rounded-md py-1 pr-2 text-xs font-medium text-muted hover:text-fg"
      >
        <ChevronIcon width={12} height={12} className={`transition-transform ${open ? 'rotate-90' : ''}`} />
        {label}
      </button>
      <div id={bodyId} hidden={!open}>
        {open ? children : null}
      </div>
    </div>
  );
}

type Tone = 'neutral' | 'accent' | 'good' | 'warn' | 'danger';

const tones: Record<Tone, string> = {
  neutral: 'border-line bg-subtle text-muted',
  accent: 'border-accent/30 bg-accent-soft text-accent',
  good: 'border-emerald-600/25 bg-emerald-50 text-emerald-700 dark:border-emerald-400/25 dark:bg-emerald-950/60 dark:text-emerald-300',
  warn: 'border-warn/30 bg-warn-soft text-warn',
  danger: 'border-danger/30 bg-danger-soft text-danger',
};

export function Badge({ tone = 'neutral', children, testId, title }: { tone?: Tone; children: ReactNode; testId?: string; title?: string }) {
  return (
    <span
      data-testid={testId}
      title={title}
      className={`inline-flex items-center gap-1 rounded-full border px-1.5 py-px text-[11px] leading-4 font-medium whitespace-nowrap ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

/** A label/value row of a definition list. */
export function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 py-1 text-sm" data-testid={testId}>
      <dt className="text-xs leading-5 text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

export function Notice({ tone = 'neutral', children, testId }: { tone?: 'neutral' | 'danger' | 'warn'; children: ReactNode; testId?: string }) {
  const style =
    tone === 'danger'
      ? 'border-danger/30 bg-danger-soft text-danger'
      : tone === 'warn'
        ? 'border-warn/30 bg-warn-soft text-warn'
        : 'border-line bg-subtle text-muted';
  return (
    <div data-testid={testId} role={tone === 'danger' ? 'alert' : undefined} className={`rounded-lg border px-3 py-2 text-sm ${style}`}>
      {children}
    </div>
  );
}

export const formatTokens = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));

export const formatMs = (ms: number) => `${ms < 10 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en-US')} ms`;

export const formatScore = (score: number | null) => (score === null ? '—' : score < 0.1 ? score.toFixed(4) : score.toFixed(3));

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatDate = (iso: string | null | undefined) => (iso ? dateOnly.format(new Date(iso)) : '—');

/** `user:<uuid>` → "you", `model:x` → "model x", anything else as is. */
export function describeActor(actor: string): string {
  if (actor.startsWith('user:')) return 'you';
  if (actor.startsWith('model:')) return `model ${actor.slice(6)}`;
  return actor;
}

export const shortId = (id: string) => id.slice(0, 8);

/** The budget's reason for an episode left out because the recent window sends all of it anyway (0 tokens). */
export const IN_WINDOW_REASON = 'every message of it is sent in the recent window';
export const sentInWindow = (decision: { kept: boolean; reason?: string | null }) => !decision.kept && decision.reason === IN_WINDOW_REASON;

/**
 * Links to the messages an item came from: a click scrolls the chat to the message when it is on
 * the page, otherwise the id is only shown.
 */
export function SourceLinks({ ids, onReveal }: { ids: string[]; onReveal?: () => void }) {
  const present = useInspector((state) => state.messages);
  if (ids.length === 0) return <span className="text-xs text-faint">no source messages</span>;
  return (
    <span className="inline-flex flex-wrap gap-1" data-testid="sources">
      {ids.map((id) => {
        const message = present.find((m) => m.id === id);
        if (!message) {
          return (
            <span
              key={id}
              data-testid="source"
              data-message-id={id}
              className="rounded bg-subtle px-1 font-mono text-[11px] text-faint"
              title={`Message ${id} (not in this conversation)`}
            >
              {shortId(id)}
            </span>
          );
        }
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
            {message.role === 'user' ? 'you' : 'reply'} · {shortId(id)}
          </button>
        );
      })}
    </span>
  );
}

export function Skeleton({ lines = 3 }: { lines?: number }) {
  return (
    <div className="space-y-2 p-4" aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="h-3 animate-pulse rounded bg-subtle" style={{ width: `${90 - i * 17}%` }} />
      ))}
    </div>
  );
}

/** A failed load, with what failed and a way to try again. */
export function LoadError({ what, error, retry }: { what: string; error: Error; retry: () => void }) {
  return (
    <Notice tone="danger">
      Could not load {what}: {error.message}{' '}
      <button type="button" className="underline" onClick={retry}>
        Try again
      </button>
    </Notice>
  );
}

// Markers the server writes into records and into the messages it sends: deleted memory removed
// from a record afterwards, and a message's forgotten or corrected part as the model was sent it.
const MARKERS = /(\[redacted\]|\[forgotten by the user\]|\[corrected by the user: [^\]\n]*\])/;

const MARKER_TITLES: Array<[string, string]> = [
  [REDACTED, 'Deleted memory was removed here after the reply'],
  ['[forgotten by the user]', 'You deleted what was here: the model was sent this marker instead'],
  ['[corrected by the user', 'You corrected what was here: the model was sent your correction'],
];

/** Text of a record with its markers (`[redacted]`, a forgotten or corrected part) set off from the rest. */
export function RedactedText({ text }: { text: string }) {
  if (!text.includes('[')) return <>{text}</>;
  const parts = text.split(MARKERS);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((part, index) => {
        if (index % 2 === 0) return <Fragment key={index}>{part}</Fragment>;
        const redacted = part === REDACTED;
        return (
          <span
            key={index}
            data-testid={redacted ? 'redacted-text' : 'marker-text'}
            title={MARKER_TITLES.find(([start]) => part.startsWith(start))?.[1]}
            className={`rounded-sm px-0.5 font-mono text-[0.9em] ring-1 ${
              redacted ? 'bg-danger-soft text-danger ring-danger/25' : 'bg-warn-soft text-warn ring-warn/25'
            }`}
          >
            {part}
          </span>
        );
      })}
    </>
  );
}
