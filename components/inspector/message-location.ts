'use client';

import { useQuery } from '@tanstack/react-query';
import { ApiError, parseApiError } from '../api';

/** Where a message lives: its conversation (GET /api/messages/:id), for links to other conversations. */
export type MessageLocation = { conversationId: string; role: 'user' | 'assistant' };

async function fetchLocation(id: string): Promise<MessageLocation> {
  let response: Response;
  try {
    response = await fetch(`/api/messages/${id}`, { cache: 'no-store' });
  } catch {
    throw new ApiError('Could not reach the server.', 0, 'network');
  }
  if (!response.ok) {
    const parsed = parseApiError(await response.text());
    throw new ApiError(parsed?.message ?? `The server answered ${response.status}.`, response.status, parsed?.code ?? 'http_error');
  }
  const body = (await response.json()) as { message: { conversationId: string; role: 'user' | 'assistant' } };
  return { conversationId: body.message.conversationId, role: body.message.role };
}

/** The conversation of a message; `gone` when it no longer exists (deleted, or not the reader's). */
export function useMessageLocation(id: string) {
  const query = useQuery({
    queryKey: ['memory', 'message-location', id],
    queryFn: () => fetchLocation(id),
    staleTime: Infinity,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });
  return { ...query, gone: query.error instanceof ApiError && query.error.status === 404 };
}
