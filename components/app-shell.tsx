'use client';

import { usePathname } from 'next/navigation';
import { type ReactNode, useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { InspectorStoreProvider } from './inspector/store';
import { type InspectorLayout, ShellContext } from './shell-context';
import { Sidebar } from './sidebar';
import type { ConversationSummary, ModelInfo } from './types';

export const INSPECTOR_PANEL_ID = 'inspector-panel';
const WIDE = '(min-width: 64rem)';
const STORAGE_KEY = 'memlens:inspector-open';
const STORAGE_EVENT = 'memlens:inspector-open';

/** Whether the inspector column is open on wide screens: remembered in localStorage, open by default. */
function useInspectorColumnOpen(): [boolean, (open: boolean) => void] {
  const open = useSyncExternalStore(
    (onChange) => {
      window.addEventListener('storage', onChange);
      window.addEventListener(STORAGE_EVENT, onChange);
      return () => {
        window.removeEventListener('storage', onChange);
        window.removeEventListener(STORAGE_EVENT, onChange);
      };
    },
    () => readStoredOpen(),
    () => true,
  );
  const setOpen = useCallback((next: boolean) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, next ? 'open' : 'closed');
    } catch {
      // storage unavailable (private mode): the choice lasts for this page only
      memoryOpen = next;
    }
    window.dispatchEvent(new Event(STORAGE_EVENT));
  }, []);
  return [open, setOpen];
}

/** Whether the screen is wide enough for the inspector column (assumed so while rendering on the server). */
function useWideScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(WIDE);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(WIDE).matches,
    () => true,
  );
}

let memoryOpen = true;
function readStoredOpen(): boolean {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    return stored === null ? memoryOpen : stored !== 'closed';
  } catch {
    return memoryOpen;
  }
}

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
  const [inspectorDrawerOpen, setInspectorDrawerOpen] = useState(false);
  const [columnOpen, setColumnOpen] = useInspectorColumnOpen();
  const wide = useWideScreen();
  const pathname = usePathname();

  // Navigating closes the mobile drawers.
  // biome-ignore lint/correctness/useExhaustiveDependencies(pathname): a change of page is what closes them
  useEffect(() => {
    setDrawerOpen(false);
    setInspectorDrawerOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!drawerOpen && !inspectorDrawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && !document.querySelector('dialog[open]')) {
        setDrawerOpen(false);
        setInspectorDrawerOpen(false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen, inspectorDrawerOpen]);

  // The drawer takes the focus when it opens.
  useEffect(() => {
    if (inspectorDrawerOpen && !wide) document.getElementById(INSPECTOR_PANEL_ID)?.focus();
  }, [inspectorDrawerOpen, wide]);

  const inspectorLayout = useMemo<InspectorLayout>(() => {
    const open = wide ? columnOpen : inspectorDrawerOpen;
    const show = () => {
      if (window.matchMedia(WIDE).matches) setColumnOpen(true);
      else setInspectorDrawerOpen(true);
    };
    const hide = () => {
      if (window.matchMedia(WIDE).matches) setColumnOpen(false);
      else setInspectorDrawerOpen(false);
    };
    return { available: Boolean(inspector), open, drawer: !wide, show, hide, toggle: () => (open ? hide() : show()) };
  }, [inspector, wide, columnOpen, inspectorDrawerOpen, setColumnOpen]);

  // Marks the page interactive (end-to-end tests wait for it before clicking).
  useEffect(() => {
    document.body.dataset.hydrated = 'true';
  }, []);

  return (
    <ShellContext.Provider value={{ openSidebar: () => setDrawerOpen(true), inspector: inspectorLayout }}>
      <InspectorStoreProvider>
        <div className="flex h-dvh w-full overflow-hidden bg-canvas" data-inspector-open={inspector ? String(columnOpen) : undefined}>
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
            <>
              <div
                className={`fixed inset-0 z-30 bg-black/40 transition-opacity lg:hidden ${inspectorDrawerOpen ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
                aria-hidden="true"
                onClick={() => setInspectorDrawerOpen(false)}
              />
              <aside
                id={INSPECTOR_PANEL_ID}
                tabIndex={-1}
                aria-label="Inspector"
                className={`fixed inset-y-0 right-0 z-40 flex w-[min(28rem,calc(100vw-2.5rem))] shrink-0 flex-col border-l border-line bg-surface shadow-2xl transition-[translate,visibility] outline-none lg:static lg:z-auto lg:w-[24rem] lg:translate-x-0 lg:shadow-none xl:w-[26rem] ${
                  inspectorDrawerOpen ? 'visible translate-x-0' : 'invisible translate-x-full'
                } ${columnOpen ? 'lg:visible' : 'lg:hidden'}`}
              >
                {inspector}
              </aside>
            </>
          ) : null}
        </div>
      </InspectorStoreProvider>
    </ShellContext.Provider>
  );
}
