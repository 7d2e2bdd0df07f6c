'use client';

import { type ReactNode, useId, useState } from 'react';
import { ChevronIcon } from '../icons';
import { HelpButton, HelpNote } from './help';

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
