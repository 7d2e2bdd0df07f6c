'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { INSPECTOR_PANEL_ID } from './app-shell';
import { InspectorIcon, MemoryIcon, MenuIcon } from './icons';
import { useShell } from './shell-context';

/** A header action: an icon, with its label beside it when the header is wide enough (read by screen readers always). */
export const HEADER_BUTTON = 'inline-flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm hover:bg-subtle hover:text-fg @md:px-2.5';
export const HEADER_LABEL = 'sr-only @2xl:not-sr-only';

/** The bar above a conversation: title, model, offline badge and conversation actions. */
export function ChatHeader({ title, model, offline, actions }: { title: string; model: string; offline: boolean; actions?: ReactNode }) {
  const { openSidebar, inspector } = useShell();
  const onMemoryPage = usePathname() === '/memory';
  return (
    // The title keeps at least 6rem at any width: the items beside it condense as the header narrows
    // (the header's own width, which the sidebar and the inspector take from): labels go to icons from
    // @2xl down, the offline badge to "Offline model" and then a dot, the model name shows from @5xl.
    <header className="@container flex h-14 shrink-0 items-center gap-2 border-b border-line bg-surface/85 px-3 backdrop-blur @md:gap-3 sm:px-5">
      <button
        type="button"
        onClick={openSidebar}
        className="rounded-md p-2 text-muted hover:bg-subtle md:hidden"
        aria-label="Open conversations"
      >
        <MenuIcon />
      </button>
      <h1 className="min-w-24 flex-1 truncate text-[15px] font-semibold" data-testid="conversation-title" title={title}>
        {title}
      </h1>
      <div className="ml-auto flex shrink-0 items-center gap-1 @md:gap-2">
        {offline ? (
          <span
            data-testid="offline-badge"
            className="inline-flex items-center gap-1.5 rounded-full border border-warn/30 bg-warn-soft px-2 py-1 text-xs font-medium text-warn @md:px-2.5"
            title="Replies come from the built-in offline model, with no AI service: it answers a question by quoting what memory holds, cited [n], and acknowledges a statement. For a real model, whoever runs memlens sets OPENAI_API_KEY (README, docs/configuration.md)."
          >
            <span className="size-1.5 rounded-full bg-warn" aria-hidden="true" />
            <span className="sr-only @md:not-sr-only">Offline model</span>
            <span className="hidden font-normal @4xl:inline">· quotes your memory</span>
          </span>
        ) : null}
        <span className="hidden rounded-full bg-subtle px-2.5 py-1 font-mono text-xs text-muted @5xl:inline" title="Chat model">
          {model}
        </span>
        {actions}
        <Link
          href="/memory"
          data-testid="memory-link"
          aria-current={onMemoryPage ? 'page' : undefined}
          className={`${HEADER_BUTTON} ${onMemoryPage ? 'bg-accent-soft text-accent' : 'text-muted'}`}
          title="Memory: everything memlens remembers about you, to search and correct"
        >
          <MemoryIcon />
          <span className={HEADER_LABEL}>Memory</span>
        </Link>
        {inspector.available ? (
          <button
            type="button"
            data-testid="inspector-toggle"
            onClick={inspector.toggle}
            aria-expanded={inspector.open}
            aria-controls={INSPECTOR_PANEL_ID}
            className={`${HEADER_BUTTON} ${inspector.open ? 'bg-accent-soft text-accent' : 'text-muted'}`}
            title={inspector.open ? 'Hide the inspector' : 'Show the inspector: what memlens remembered for each reply'}
          >
            <InspectorIcon />
            <span className={HEADER_LABEL}>Inspector</span>
          </button>
        ) : null}
      </div>
    </header>
  );
}
