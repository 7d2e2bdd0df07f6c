'use client';

import { type ReactNode, useId, useState } from 'react';
import { HelpButton, HelpNote } from './help';

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
