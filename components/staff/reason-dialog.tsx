'use client';

import { type ReactNode, useEffect, useId, useState } from 'react';
import { DialogFrame } from '../confirm-dialog';
import { buttons, inputStyle } from '../ui/styles';

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
  // biome-ignore lint/correctness/useExhaustiveDependencies(content?.initial): a new initial text while open must not wipe what is being typed
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
            // biome-ignore lint/a11y/noAutofocus: the first field of the dialog the user just opened takes the focus
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
          // biome-ignore lint/a11y/noAutofocus: the first field of the dialog the user just opened takes the focus
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
