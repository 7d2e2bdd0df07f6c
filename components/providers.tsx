'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
// First: it configures zod before any module that builds a schema is evaluated.
import './zod-without-eval';
import { UndoToast } from './undo-toast';

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
