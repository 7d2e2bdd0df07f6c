'use client';

import { type ReactNode, useId, useState } from 'react';

// Inline help: a small "?" that opens a short note where the figure stands.

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
