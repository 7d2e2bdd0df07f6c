'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dynamic from 'next/dynamic';
import { type ReactNode, useState } from 'react';
import './zod-without-eval';

// Loaded after the page: the toast shows only after a correction, and its modules (the API client,
// whose zod schema is built on load) stay out of this chunk, which configures zod first.
const UndoToast = dynamic(() => import('./undo-toast').then((m) => m.UndoToast), { ssr: false });

export function Providers({ children }: { children: ReactNode }) {
  // One client per browser tab, created on first render (never shared between server requests).
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 30_000, refetchOnWindowFocus: true, retry: 1 },
          mutations: { retry: 0 },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      {children}
      <UndoToast />
    </QueryClientProvider>
  );
}
