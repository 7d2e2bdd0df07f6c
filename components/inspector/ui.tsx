'use client';

import Link from 'next/link';
import { type ReactNode, useId, useState } from 'react';
import { ChevronIcon } from '../icons';
import { VisibleText } from '../visible-text';
import { useEndpoints, useMessageLocation, useViewer, type Viewer } from './endpoints';
import { revealMessage, useInspector } from './store';
import { REDACTED } from './types';

// Small building blocks shared by the inspector's sections.

/** A titled, collapsible section; `testId` names it for tests and is its anchor. */
export function Section({
  testId,
  title,
  meta,
  help,
  defaultOpen = true,
  openSignal,
  children,
}: {
  testId: string;
  title: string;
  /** A one-line digest shown next to the title (visible even when collapsed). */
  meta?: ReactNode;
  /** What the section's figures mean: behind a "?" next to the title, shown at the top of the body. */
  help?: ReactNode;
  defaultOpen?: boolean;
  /** Opens the section whenever this value changes (e.g. to show an item asked for elsewhere). */
  openSignal?: unknown;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [helpOpen, setHelpOpen] = useState(false);
  const bodyId = useId();
  const helpId = useId();
  const [signal, setSignal] = useState(openSignal);
  if (signal !== openSignal) {
    setSignal(openSignal);
    if (openSignal !== undefined && openSignal !== null) setOpen(true);
  }
  return (
    <section data-testid={testId} data-open={open} aria-label={title} className="border-b border-line last:border-b-0">
      <h3 className="flex items-center pr-2">
        <button
          type="button"
          data-testid={`${testId}-toggle`}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((value) => !value)}
          className="flex min-w-0 flex-1 items-center gap-2 py-2.5 pl-4 text-left hover:bg-subtle/60"
        >
          <ChevronIcon width={14} height={14} className={`shrink-0 text-faint transition-transform ${open ? 'rotate-90' : ''}`} />
          <span className="text-xs font-semibold tracking-wide text-fg uppercase">{title}</span>
          {meta ? <span className="ml-auto min-w-0 truncate pr-1 text-xs text-muted">{meta}</span> : null}
        </button>
        {help ? (
          <HelpButton
            testId={`${testId}-help-toggle`}
            label={`What the ${title.toLowerCase()} figures mean`}
            open={helpOpen && open}
            controls={helpId}
            onToggle={() => {
              setHelpOpen(!(helpOpen && open));
              setOpen(true);
            }}
          />
        ) : null}
      </h3>
      <div id={bodyId} hidden={!open} className="px-4 pt-0.5 pb-4">
        {help ? (
          <HelpNote id={helpId} open={helpOpen && open} testId={`${testId}-help`}>
            {help}
          </HelpNote>
        ) : null}
        {open ? children : null}
      </div>
    </section>
  );
}

// ---- inline help: a small "?" that opens a short note where the figure stands

/** The "?" button of an explanation; the note itself is a `HelpNote` placed where a block fits. */
export function HelpButton({
  label,
  open,
  controls,
  onToggle,
  testId,
}: {
  label: string;
  open: boolean;
  controls: string;
  onToggle: () => void;
  testId?: string;
}) {
  return (
    <button
      type="button"
      data-testid={testId}
      aria-expanded={open}
      aria-controls={controls}
      aria-label={label}
      title={label}
      onClick={onToggle}
      className={`grid size-[18px] shrink-0 place-items-center rounded-full border text-[10.5px] leading-none font-semibold transition-colors ${
        open ? 'border-accent bg-accent text-on-accent' : 'border-line text-faint hover:border-accent/50 hover:text-accent'
      }`}
    >
      ?
    </button>
  );
}

export function HelpNote({ id, open, testId, children }: { id: string; open: boolean; testId?: string; children: ReactNode }) {
  return (
    <div
      id={id}
      role="note"
      data-testid={testId}
      hidden={!open}
      className="mb-3 rounded-lg border border-accent/20 bg-accent-soft/60 px-3 py-2 text-xs leading-5 font-normal text-fg normal-case tracking-normal [&_b]:font-semibold [&_p+p]:mt-1.5"
    >
      {children}
    </div>
  );
}

/** A "?" with its note right under the row it stands in: `children` is the row, `help` the note. */
export function Explained({ help, label, testId, children }: { help: ReactNode; label: string; testId?: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <span className="inline-flex items-center gap-1.5">
        {children}
        <HelpButton
          label={label}
          open={open}
          controls={id}
          onToggle={() => setOpen((value) => !value)}
          testId={testId ? `${testId}-toggle` : undefined}
        />
      </span>
      <HelpNote id={id} open={open} testId={testId}>
        {help}
      </HelpNote>
    </>
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

export function Badge({
  tone = 'neutral',
  children,
  testId,
  title,
}: {
  tone?: Tone;
  children: ReactNode;
  testId?: string;
  title?: string;
}) {
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

/** A label/value row of a definition list; `help` puts a "?" after the label and its note under the row. */
export function Field({ label, children, testId, help }: { label: string; children: ReactNode; testId?: string; help?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 py-1 text-sm" data-testid={testId}>
      <dt className="flex items-start gap-1 text-xs leading-5 text-muted">
        {label}
        {help ? <HelpButton label={`About “${label}”`} open={open} controls={id} onToggle={() => setOpen((value) => !value)} /> : null}
      </dt>
      <dd className="min-w-0 break-words">{children}</dd>
      {help ? (
        <dd className="col-span-2 mt-1" hidden={!open}>
          <HelpNote id={id} open>
            {help}
          </HelpNote>
        </dd>
      ) : null}
    </div>
  );
}

export function Notice({
  tone = 'neutral',
  children,
  testId,
}: {
  tone?: 'neutral' | 'danger' | 'warn';
  children: ReactNode;
  testId?: string;
}) {
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

/**
 * `user:<uuid>` → "you" for the user (or, for staff, "the user" when it is the owner and "staff …"
 * otherwise), `model:x` → "model x", anything else as is.
 */
export function describeActor(actor: string, viewer: Viewer = { audience: 'owner' }): string {
  if (actor.startsWith('user:')) {
    if (viewer.audience === 'owner') return 'you';
    const id = actor.slice('user:'.length);
    return id === viewer.ownerId ? 'the user' : `staff ${shortId(id)}`;
  }
  if (actor.startsWith('model:')) return `model ${actor.slice(6)}`;
  return actor;
}

export const shortId = (id: string) => id.slice(0, 8);

/** The budget's reason for an episode left out because the recent window sends all of it anyway (0 tokens). */
export const IN_WINDOW_REASON = 'every message of it is sent in the recent window';
export const sentInWindow = (decision: { kept: boolean; reason?: string | null }) => !decision.kept && decision.reason === IN_WINDOW_REASON;

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
  ['[forgotten by the user]', 'What was here was deleted from memory: the model was sent this marker instead'],
  ['[corrected by the user', 'What was here was corrected: the model was sent the correction'],
];

/** Text of a record with its markers (`[redacted]`, a forgotten or corrected part) and its invisible characters set off from the rest. */
export function RedactedText({ text }: { text: string }) {
  if (!text.includes('[')) return <VisibleText text={text} />;
  const parts = text.split(MARKERS);
  if (parts.length === 1) return <VisibleText text={text} />;
  return (
    <>
      {parts.map((part, index) => {
        if (index % 2 === 0) return <VisibleText key={index} text={part} />;
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
            <VisibleText text={part} />
          </span>
        );
      })}
    </>
  );
}
