'use client';

import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { type ReactNode, useState } from 'react';
import './zod-without-eval';

// Loaded after the page: the toast shows only after a correction, and its modules (the API client,
// whose zod schema is built on load) stay out of this chunk, which configures zod first.
const UndoToast = dynamic(() => import('./undo-toast').then((m) => m.UndoToast), { ssr: false });

export function Providers({ children }: { children: ReactNode }) {
  // One client per browser tab, created on first render (never shared between server requests).
  const [client] = useState(() => {
    const queryClient: QueryClient = new QueryClient({
      // A 401 (an ApiError's status) may mean the session ended under the page: who is signed in is
      // read again (components/account-menu.tsx). Duck-typed: the API client stays out of this chunk.
      queryCache: new QueryCache({
        onError: (error) => {
          if ((error as { status?: unknown }).status === 401) void queryClient.invalidateQueries({ queryKey: ['me'] });
        },
      }),
      defaultOptions: {
        queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 1 },
        mutations: { retry: 0 },
      },
    });
    return queryClient;
  });
  return (
    <QueryClientProvider client={client}>
      {children}
      <UndoToast />
    </QueryClientProvider>
  );
}
