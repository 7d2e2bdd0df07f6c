import type { Executor } from '@/db/provenance';
import { type NewUndoableChange, recordUndoable, type UndoRef } from '@/db/undo';
import { getConfig } from '@/lib/config';

export type { UndoRef } from '@/db/undo';

/** Records a change, in the transaction that makes it, as undoable for UNDO_WINDOW_MINUTES (lib/memory/corrections/undo.ts undoes it). */
export async function captureUndoable(tx: Executor, change: Omit<NewUndoableChange, 'expiresAt'>): Promise<UndoRef> {
  return recordUndoable(tx, { ...change, expiresAt: new Date(Date.now() + getConfig().UNDO_WINDOW_MINUTES * 60_000) });
}
