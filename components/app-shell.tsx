'use client';

import { usePathname } from 'next/navigation';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { Sidebar } from './sidebar';
import type { ConversationSummary, ModelInfo } from './types';

type ShellContext = { openSidebar: () => void };
const ShellContext = createContext<ShellContext>({ openSidebar: () => {} });
export const useShell = () => useContext(ShellContext);

/**
 * The app frame: conversation sidebar | main column | optional inspector column.
 * The sidebar is a drawer below the md breakpoint.
 */
export function AppShell({
  conversations,
  model,
  children,
  inspector,
}: {
  conversations: ConversationSummary[];
  model: ModelInfo;
  children: ReactNode;
  /** A third column on the right (the memory inspector slots in here). */
  inspector?: ReactNode;
}) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const pathname = usePathname();

  // Navigating closes the mobile drawer.
  useEffect(() => setDrawerOpen(false), [pathname]);

  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  // Marks the page interactive (end-to-end tests wait for it before clicking).
  useEffect(() => {
    document.body.dataset.hydrated = 'true';
  }, []);

  return (
    <ShellContext.Provider value={{ openSidebar: () => setDrawerOpen(true) }}>
      <div className="flex h-dvh w-full overflow-hidden bg-canvas">
        <div
          className={`fixed inset-0 z-30 bg-black/40 transition-opacity md:hidden ${drawerOpen ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
          aria-hidden="true"
          onClick={() => setDrawerOpen(false)}
        />
        <div
          className={`fixed inset-y-0 left-0 z-40 w-72 shrink-0 transition-[translate,visibility] md:visible md:static md:z-auto md:translate-x-0 ${
            drawerOpen ? 'visible translate-x-0' : 'invisible -translate-x-full'
          }`}
        >
          <Sidebar initialConversations={conversations} model={model} onClose={() => setDrawerOpen(false)} />
        </div>
        <main className="flex min-w-0 flex-1 flex-col">{children}</main>
        {inspector ? (
          <aside aria-label="Inspector" className="hidden w-96 shrink-0 border-l border-line bg-surface lg:flex lg:flex-col">
            {inspector}
          </aside>
        ) : null}
      </div>
    </ShellContext.Provider>
  );
}
