'use client';

import { type ReactNode, useEffect, useId, useRef } from 'react';

type DialogFrameProps = {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** The confirm button's classes: the caller picks its colour. */
  confirmClassName: string;
  /** The confirm button is off (e.g. until what it would do is known); Cancel still works. */
  confirmDisabled?: boolean;
  /** The confirm button takes the focus (a dialog with no field to type in). */
  focusConfirm?: boolean;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
  /** 30rem instead of 26rem, for a dialog with fields. */
  wide?: boolean;
  /** Fields, shown between the description and the error. */
  children?: ReactNode;
};

/**
 * The modal under every confirmation, built on <dialog>: focus is trapped, Escape and the backdrop cancel
 * (not while busy), and the confirm button submits its form, so Enter in a field confirms.
 */
export function DialogFrame({
  open,
  title,
  description,
  confirmLabel,
  confirmClassName,
  confirmDisabled,
  focusConfirm,
  busy,
  error,
  onConfirm,
  onCancel,
  testId,
  wide,
  children,
}: DialogFrameProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click handler catches clicks on the backdrop; from the keyboard a dialog closes with Escape natively
    <dialog
      ref={ref}
      data-testid={testId}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> element itself.
        if (event.target === event.currentTarget && !busy) onCancel();
      }}
      className={`m-auto ${wide ? 'w-[min(30rem,calc(100vw-2rem))]' : 'w-[min(26rem,calc(100vw-2rem))]'} rounded-xl border border-line bg-surface p-0 text-fg shadow-2xl backdrop:bg-black/40 backdrop:backdrop-blur-[1px]`}
    >
      <form
        className="p-5"
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        <div id={descriptionId} className="mt-1.5 text-sm leading-6 text-muted">
          {description}
        </div>
        {children}
        {error ? (
          <p
            role="alert"
            data-testid={testId ? `${testId}-error` : undefined}
            className="mt-3 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger"
          >
            {error}
          </p>
        ) : null}
        <div className="mt-5 flex justify-end gap-2">
          <button
            type="button"
            onClick={onCancel}
            disabled={busy}
            className="rounded-lg px-3.5 py-2 text-sm font-medium text-fg hover:bg-subtle disabled:opacity-50"
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={busy || confirmDisabled}
            // biome-ignore lint/a11y/noAutofocus: the dialog the user just opened focuses its confirm button when asked to, as a dialog should
            autoFocus={focusConfirm}
            data-testid={testId ? `${testId}-confirm` : undefined}
            className={confirmClassName}
          >
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

type ConfirmDialogProps = Pick<
  DialogFrameProps,
  'open' | 'title' | 'description' | 'confirmLabel' | 'busy' | 'confirmDisabled' | 'error' | 'onConfirm' | 'onCancel' | 'testId'
>;

/** A yes-or-no question before something that cannot be undone: the confirm button is red and has the focus. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <DialogFrame
      {...props}
      focusConfirm
      confirmClassName="rounded-lg bg-danger px-3.5 py-2 text-sm font-medium text-white hover:opacity-90 disabled:opacity-60 dark:text-canvas"
    />
  );
}
