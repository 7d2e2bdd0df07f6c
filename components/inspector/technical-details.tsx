import type { ReactNode } from 'react';

/** The engineering detail behind plain words: closed until asked for. */
export function TechnicalDetails({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <details className="mt-1.5 text-muted [&_p+p]:mt-1.5" data-testid={testId}>
      <summary className="cursor-pointer font-medium text-fg select-none">Technical details</summary>
      <div className="mt-1">{children}</div>
    </details>
  );
}
