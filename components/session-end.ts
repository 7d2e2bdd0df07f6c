'use client';

import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { authClient } from './auth-client';

/**
 * When a session ends (signed out here or in another tab, expired, the account deleted), nothing
 * private may stay on screen or in memory: the cache is emptied and the page replaced by a fresh
 * load of `target`. A client-side navigation would keep the chat's and the inspector's state, and
 * the back button would bring the page back from the browser's cache.
 */
export function leaveSession(queryClient: QueryClient, target: string): void {
  queryClient.clear();
  window.location.replace(target);
}

/** Signs out, then leaves as `leaveSession` does. */
export function useSignOut(): (target: string) => Promise<void> {
  const queryClient = useQueryClient();
  return async (target) => {
    await authClient.signOut().catch(() => undefined);
    leaveSession(queryClient, target);
  };
}

/** Where a member goes when their session ended under them: the sign-in page, which brings them back here. */
export function signInAgainPath(): string {
  const here = window.location.pathname;
  return here && here !== '/' ? `/login?next=${encodeURIComponent(here)}` : '/login';
}
