'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { announceMemoryChanged, api, memoryKeys } from './api';

/**
 * After a correction of memory (a fact edited or deleted, everything forgotten): every memory view
 * is re-read (facts, summaries, and turn records, which the server has redacted), and the chat is
 * told to re-read its messages (their forgotten and corrected parts are marked).
 */
export function useAfterMemoryChange(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: memoryKeys.all });
    announceMemoryChanged();
  }, [queryClient]);
}

/** Undoes a change (a correction, or a fact a reply learned or replaced); memory views then re-read as after a correction. */
export function useUndoChange() {
  const afterMemoryChange = useAfterMemoryChange();
  return useMutation({ mutationFn: (id: string) => api.undoChange(id), onSuccess: afterMemoryChange });
}
