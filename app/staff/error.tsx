'use client';

import { useEffect } from 'react';

/** Something in a console page broke while rendering: say so, and offer to try again. */
export default function StaffError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error('[memlens] staff console error', error);
  }, [error]);
  return (
    <div className="mx-auto max-w-md py-16 text-center" role="alert" data-testid="staff-page-error">
      <p className="text-sm font-medium text-danger">Something went wrong</p>
      <h1 className="mt-2 text-xl font-semibold tracking-tight">This page could not be shown</h1>
      <p className="mt-3 text-[15px] leading-7 text-muted">
        Nothing was changed. Try again; if it keeps failing, the server log has the details{error.digest ? ` (error ${error.digest})` : ''}.
      </p>
      <button
        type="button"
        onClick={reset}
        className="mt-6 inline-flex rounded-xl bg-accent px-4 py-2 text-sm font-medium text-on-accent hover:bg-accent-hover"
      >
        Try again
      </button>
    </div>
  );
}
