'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, conversationsKey } from './api';

/** "Clear conversation": its confirmation, the request, and its error; `onCleared` runs once the messages are gone. */
export function useClearConversation(conversationId: string, onCleared: () => void) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const clear = async () => {
    setClearing(true);
    setError(null);
    try {
      await api.clearMessages(conversationId);
      onCleared();
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: conversationsKey });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setClearing(false);
    }
  };

  return {
    confirming,
    clearing,
    error,
    ask: () => {
      setError(null);
      setConfirming(true);
    },
    cancel: () => setConfirming(false),
    clear,
  };
}
