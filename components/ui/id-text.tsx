'use client';

import { useEffect, useState } from 'react';
import { CheckIcon, CopyIcon } from '../icons';

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
