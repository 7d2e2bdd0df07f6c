'use client';

import { type ReactNode, useId, useState } from 'react';
import { HelpButton, HelpNote } from './help';

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
