'use client';

import { type ReactNode, useEffect, useId, useState } from 'react';
import { DialogFrame } from '../confirm-dialog';
import { CheckIcon, CopyIcon } from '../icons';
import { Badge, HelpButton, HelpNote, LoadError, Skeleton } from '../inspector/ui';

// Building blocks of the staff console. The small pieces (Badge, Notice, Skeleton, the "?" notes)
// are the inspector's (components/inspector/ui.tsx), so the console reads like the rest of the app.

export const buttons = {
  primary:
    'inline-flex items-center justify-center gap-1.5 rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-on-accent shadow-xs hover:bg-accent-hover disabled:cursor-not-allowed disabled:opacity-60',
  secondary:
    'inline-flex items-center justify-center gap-1.5 rounded-lg border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:bg-subtle disabled:cursor-not-allowed disabled:opacity-60',
  danger:
    'inline-flex items-center justify-center gap-1.5 rounded-lg bg-danger px-3 py-1.5 text-sm font-medium text-white hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60 dark:text-canvas',
  quiet:
    'inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-muted hover:bg-subtle hover:text-fg disabled:opacity-50',
  quietDanger:
    'inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-muted hover:bg-danger-soft hover:text-danger disabled:opacity-50',
} as const;

export const inputStyle =
  'w-full rounded-lg border border-line bg-canvas px-3 py-2 text-sm placeholder:text-faint focus:border-accent focus:outline-none aria-[invalid=true]:border-danger';

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The title of a console page, what it is for, and its actions. */
export function PageHeader({
  title,
  description,
  actions,
  eyebrow,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  eyebrow?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
      <div className="min-w-0 flex-1 basis-72">
        {eyebrow ? <div className="mb-1 text-xs text-muted">{eyebrow}</div> : null}
        <h1 className="text-xl font-semibold tracking-tight break-words sm:text-2xl">{title}</h1>
        {description ? <p className="mt-1.5 max-w-3xl text-[15px] leading-7 text-muted">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** A card: a heading with an optional "?" explaining its figures, a line on what it is, actions, and its body. */
export function Card({
  title,
  meta,
  description,
  help,
  actions,
  testId,
  children,
  flush,
}: {
  title: ReactNode;
  meta?: ReactNode;
  description?: ReactNode;
  help?: ReactNode;
  actions?: ReactNode;
  testId?: string;
  children: ReactNode;
  /** The body goes edge to edge (a list or a table with its own padding). */
  flush?: boolean;
}) {
  const [helpOpen, setHelpOpen] = useState(false);
  const headingId = useId();
  const helpId = useId();
  return (
    <section aria-labelledby={headingId} data-testid={testId} className="min-w-0 rounded-xl border border-line bg-surface shadow-xs">
      <header className="flex flex-wrap items-start gap-x-4 gap-y-2 px-4 pt-4 sm:px-5">
        <div className="min-w-0 flex-1 basis-56">
          <h2 id={headingId} className="flex flex-wrap items-center gap-x-2 gap-y-1 text-base font-semibold tracking-tight">
            {title}
            {meta ? <span className="text-sm font-normal text-muted">{meta}</span> : null}
            {help ? (
              <HelpButton label={`What this shows`} open={helpOpen} controls={helpId} onToggle={() => setHelpOpen((open) => !open)} />
            ) : null}
          </h2>
          {description ? <p className="mt-1 text-sm leading-6 text-muted">{description}</p> : null}
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div> : null}
      </header>
      {help ? (
        <div className="px-4 pt-3 sm:px-5" hidden={!helpOpen}>
          <HelpNote id={helpId} open={helpOpen}>
            {help}
          </HelpNote>
        </div>
      ) : null}
      <div className={flush ? 'pt-3' : 'px-4 pt-3 pb-4 sm:px-5'}>{children}</div>
    </section>
  );
}

/** Nothing to show, said plainly, with what would fill it. */
export function Empty({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId} className="rounded-lg border border-dashed border-line px-4 py-8 text-center">
      <p className="text-sm font-medium">{title}</p>
      {children ? <div className="mx-auto mt-1 max-w-md text-sm leading-6 text-muted">{children}</div> : null}
    </div>
  );
}

/** A query's loading and error states; its data once there. */
export function Loaded<T>({
  query,
  what,
  lines = 4,
  children,
}: {
  query: { data: T | undefined; isPending: boolean; isError: boolean; error: Error | null; refetch: () => unknown };
  what: string;
  lines?: number;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <div role="status" aria-label={`Loading ${what}`} data-testid="staff-loading">
        <Skeleton lines={lines} />
      </div>
    );
  }
  if (query.isError || query.data === undefined) {
    return (
      <div className="p-1" data-testid="staff-error">
        <LoadError what={what} error={query.error ?? new Error('no data')} retry={() => void query.refetch()} />
      </div>
    );
  }
  return <>{children(query.data)}</>;
}

export const ROLE_HELP = (
  <>
    <p>
      <b>guest</b>: a browser session that has not signed up (a cookie). <b>member</b>: an account with an email and password; a guest who
      signs up becomes the member and keeps their conversations and memory.
    </p>
    <p>
      <b>staff</b> may read any user&apos;s data here; every such read and every edit is written to the audit log. <b>user</b> sees only
      their own.
    </p>
  </>
);

export function AccountBadges({ user }: { user: { kind: 'guest' | 'member'; role: 'user' | 'staff' } }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge
        tone={user.kind === 'member' ? 'accent' : 'neutral'}
        title={user.kind === 'member' ? 'Signed up with email and password' : 'A browser session that has not signed up'}
      >
        {user.kind}
      </Badge>
      {user.role === 'staff' ? (
        <Badge tone="warn" title="Can use the staff console">
          staff
        </Badge>
      ) : null}
    </span>
  );
}

/** An id in full (monospace, wraps on a phone) with a copy button. */
export function IdText({ id, short = false, testId }: { id: string; short?: boolean; testId?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 1200);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <span className="inline-flex max-w-full items-center gap-0.5 align-middle">
      <code data-testid={testId} title={id} className="min-w-0 font-mono text-[12px] break-all text-muted">
        {short ? id.slice(0, 8) : id}
      </code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(id).then(() => setCopied(true));
        }}
        className="shrink-0 rounded p-1 text-faint hover:bg-subtle hover:text-fg"
        aria-label={copied ? 'Copied' : `Copy ${id}`}
        title={copied ? 'Copied' : 'Copy the full id'}
      >
        {copied ? <CheckIcon width={12} height={12} /> : <CopyIcon width={12} height={12} />}
      </button>
    </span>
  );
}

/**
 * A modal that asks why before a staff edit (the reason goes into the audit log): optionally the
 * new text first. The dialog itself is the app's (confirm-dialog.tsx): Escape and the backdrop cancel.
 */
export function ReasonDialog({
  open,
  title,
  description,
  confirmLabel,
  tone = 'primary',
  content,
  busy,
  error,
  onConfirm,
  onCancel,
  testId,
}: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  tone?: 'primary' | 'danger';
  /** Shows a text box for the new content, starting with this text. */
  content?: { label: string; initial: string };
  busy?: boolean;
  error?: string | null;
  onConfirm: (values: { reason: string; content: string }) => void;
  onCancel: () => void;
  testId: string;
}) {
  const reasonId = useId();
  const reasonHintId = useId();
  const contentId = useId();
  const [reason, setReason] = useState('');
  const [text, setText] = useState(content?.initial ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  // Each opening starts blank; content.initial is read only then.
  useEffect(() => {
    if (!open) return;
    setReason('');
    setText(content?.initial ?? '');
    setProblem(null);
  }, [open]);

  const submit = () => {
    if (content && text.trim().length === 0) {
      setProblem(`${content.label} must not be empty.`);
      return;
    }
    if (reason.trim().length < 3) {
      setProblem('Say why, in a few words (at least 3 characters): the reason is kept in the audit log.');
      return;
    }
    setProblem(null);
    onConfirm({ reason: reason.trim(), content: text.trim() });
  };

  return (
    <DialogFrame
      open={open}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      confirmClassName={`${tone === 'danger' ? buttons.danger : buttons.primary} px-3.5 py-2`}
      busy={busy}
      error={problem ?? error}
      onConfirm={submit}
      onCancel={onCancel}
      testId={testId}
      wide
    >
      {content ? (
        <div className="mt-4">
          <label htmlFor={contentId} className="mb-1 block text-sm font-medium">
            {content.label}
          </label>
          <textarea
            id={contentId}
            data-testid={`${testId}-content`}
            value={text}
            rows={3}
            maxLength={2000}
            disabled={busy}
            autoFocus
            onChange={(event) => setText(event.target.value)}
            className={`${inputStyle} resize-y leading-6`}
          />
        </div>
      ) : null}
      <div className="mt-4">
        <label htmlFor={reasonId} className="mb-1 block text-sm font-medium">
          Reason <span className="font-normal text-muted">(required, kept in the audit log)</span>
        </label>
        <input
          id={reasonId}
          data-testid={`${testId}-reason`}
          value={reason}
          maxLength={500}
          disabled={busy}
          autoFocus={!content}
          autoComplete="off"
          placeholder="e.g. the user asked by email, ticket 42"
          aria-describedby={reasonHintId}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => {
            setReason(event.target.value);
            if (problem) setProblem(null);
          }}
          className={inputStyle}
        />
        <p id={reasonHintId} className="mt-1 text-xs text-muted">
          Who asked, or why it was needed. Anyone reading the audit log later sees it next to your name.
        </p>
      </div>
    </DialogFrame>
  );
}

/** A short line that announces the result of an action to screen readers too. */
export function StatusLine({ tone = 'good', children, testId }: { tone?: 'good' | 'danger'; children: ReactNode; testId?: string }) {
  return (
    <p
      role={tone === 'danger' ? 'alert' : 'status'}
      data-testid={testId}
      className={`rounded-lg border px-3 py-2 text-sm ${
        tone === 'danger'
          ? 'border-danger/30 bg-danger-soft text-danger'
          : 'border-emerald-600/25 bg-emerald-50 text-emerald-800 dark:border-emerald-400/25 dark:bg-emerald-950/60 dark:text-emerald-200'
      }`}
    >
      {children}
    </p>
  );
}
