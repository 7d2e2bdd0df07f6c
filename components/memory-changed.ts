'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { announceMemoryChanged, memoryKeys } from './api';

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
