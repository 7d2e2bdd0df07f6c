'use client';

import { useEffect, useState } from 'react';
import { onUndoOffered, type UndoOffer } from './api';
import { CloseIcon } from './icons';
import { useUndoChange } from './memory-changed';

const time = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
/** How long "Undone." stays once the undo is done. */
const DONE_MS = 4000;

/**
 * The last correction made on this page, with Undo while it can be undone: every correction's
 * answer offers it (components/api.ts), so the memory page, the inspector, the chat and the
 * "forget everything" dialog all get it.
 */
export function UndoToast() {
  const [offer, setOffer] = useState<UndoOffer | null>(null);
  const [done, setDone] = useState(false);
  const undo = useUndoChange();
  const { reset } = undo;

  useEffect(
    () =>
      onUndoOffered((next) => {
        reset();
        setDone(false);
        setOffer(next);
      }),
    [reset],
  );

  useEffect(() => {
    if (!offer) return;
    const wait = done ? DONE_MS : new Date(offer.expiresAt).getTime() - Date.now();
    const timer = setTimeout(() => setOffer(null), Math.min(Math.max(wait, 0), 2_147_483_647));
    return () => clearTimeout(timer);
  }, [offer, done]);

  if (!offer) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 top-3 z-50 flex justify-center px-3 sm:inset-x-auto sm:top-auto sm:bottom-24 sm:left-4">
      <div
        role="status"
        aria-live="polite"
        data-testid="undo-toast"
        className="pointer-events-auto flex max-w-md flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-line bg-surface px-4 py-2.5 text-sm text-fg shadow-lg"
      >
        <span className="min-w-0">{done ? 'Undone.' : offer.label}</span>
        {done ? null : (
          <>
            <button
              type="button"
              data-testid="undo"
              disabled={undo.isPending}
              onClick={() => undo.mutate(offer.id, { onSuccess: () => setDone(true) })}
              className="rounded-md px-1.5 py-0.5 font-medium text-accent hover:bg-accent-soft disabled:opacity-60"
            >
              {undo.isPending ? 'Undoing…' : 'Undo'}
            </button>
            <span className="text-xs text-muted">until {time.format(new Date(offer.expiresAt))}</span>
          </>
        )}
        {undo.error ? (
          <span role="alert" className="w-full text-xs text-danger">
            {undo.error.message}
          </span>
        ) : null}
        <button
          type="button"
          aria-label="Dismiss"
          onClick={() => setOffer(null)}
          className="ml-auto rounded-md p-1 text-muted hover:bg-subtle"
        >
          <CloseIcon width={14} height={14} />
        </button>
      </div>
    </div>
  );
}
