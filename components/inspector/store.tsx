'use client';

import type { ChatStatus } from 'ai';
import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { ChatMessage } from '../types';

export type InspectorTab = 'turn' | 'memory';

/**
 * An item of one reply's context to show: its `[n]` as the reply cites it, or its key (when coming
 * from another reply, whose numbers differ). `seq` tells one request from the next for the same item.
 */
type InspectorFocus = { messageId: string; n?: number; key?: string; seq: number };

type State = {
  conversationId: string | null;
  /** The conversation's messages as the chat holds them (with the streamed `data-turn` parts). */
  messages: ChatMessage[];
  status: ChatStatus;
  /** The assistant message chosen with "Inspect"; null follows the latest reply. */
  pinnedId: string | null;
  tab: InspectorTab;
  /** The item asked for by a click on `[n]` in a reply or on a reply that cited it. */
  focus: InspectorFocus | null;
};

/**
 * What the chat column and the inspector column share. The chat publishes its messages here as
 * they stream; the inspector and the messages' Inspect buttons subscribe to the slices they need,
 * so a token re-renders only what shows it.
 */
export class InspectorStore {
  private state: State = { conversationId: null, messages: [], status: 'ready', pinnedId: null, tab: 'turn', focus: null };
  private focusSeq = 0;
  private listeners = new Set<() => void>();

  getState = () => this.state;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  private set(patch: Partial<State>) {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  publish(conversationId: string, messages: ChatMessage[], status: ChatStatus) {
    const previous = this.state;
    if (previous.conversationId === conversationId && previous.messages === messages && previous.status === status) return;
    const patch: Partial<State> = { conversationId, messages, status };
    // Another conversation, or a new question: follow the newest reply again.
    if (previous.conversationId !== conversationId) {
      patch.pinnedId = null;
      patch.focus = null;
    } else if (status === 'submitted' && previous.status !== 'submitted') patch.pinnedId = null;
    this.set(patch);
  }

  /** Binds the inspector to one assistant message (null: the latest). */
  pin(messageId: string | null) {
    this.set({ pinnedId: messageId, tab: 'turn' });
  }

  /** Binds the inspector to a reply and points at one item of its context (by `[n]` or by key). */
  focusItem(messageId: string, target: { n: number } | { key: string }) {
    this.focusSeq += 1;
    this.set({ pinnedId: messageId, tab: 'turn', focus: { messageId, ...target, seq: this.focusSeq } });
  }

  setTab(tab: InspectorTab) {
    if (tab !== this.state.tab) this.set({ tab });
  }
}

/** The assistant message the inspector shows: the pinned one while it exists, else the latest. */
export function boundMessage(state: State): ChatMessage | null {
  let latest: ChatMessage | null = null;
  for (const message of state.messages) {
    if (message.role !== 'assistant') continue;
    if (message.id === state.pinnedId) return message;
    latest = message;
  }
  return latest;
}

const StoreContext = createContext<InspectorStore | null>(null);

export function InspectorStoreProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => new InspectorStore());
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** The shared store, or null outside a page that has an inspector. */
export function useInspectorStore(): InspectorStore | null {
  return useContext(StoreContext);
}

const emptyStore = new InspectorStore();

/** Subscribes to one slice of the store (the selector must return a stable value for unchanged state). */
export function useInspector<T>(select: (state: State) => T): T {
  const store = useContext(StoreContext) ?? emptyStore;
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.getState()),
    () => select(store.getState()),
  );
}

/** The chat publishes what it holds on every change. */
export function usePublishChat(conversationId: string, messages: ChatMessage[], status: ChatStatus) {
  const store = useInspectorStore();
  useEffect(() => {
    store?.publish(conversationId, messages, status);
  }, [store, conversationId, messages, status]);
}

/** Scrolls the chat to a message and flashes it; returns false when it is not on the page. */
export function revealMessage(messageId: string): boolean {
  const element = document.querySelector<HTMLElement>(`[data-testid="message"][data-message-id="${CSS.escape(messageId)}"]`);
  if (!element) return false;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'center' });
  flash(element);
  return true;
}

/** Scrolls the chat to a reply and flashes its `[n]` links (or the whole reply when it has none on the page). */
export function revealCitation(messageId: string, n: number | null): boolean {
  if (!revealMessage(messageId)) return false;
  if (n === null) return true;
  const links = document.querySelectorAll<HTMLElement>(
    `[data-testid="message"][data-message-id="${CSS.escape(messageId)}"] [data-testid="cite-link"][data-n="${n}"]`,
  );
  links.forEach(flash);
  return true;
}

function flash(element: HTMLElement) {
  element.dataset.flash = 'true';
  window.setTimeout(() => {
    delete element.dataset.flash;
  }, 1600);
}

/**
 * A link to a message of a conversation (`/c/<id>#message-<messageId>`, as the inspector's sources
 * in other conversations are) scrolls to that message once the chat holds it, and again when the
 * hash changes on the page.
 */
export function useRevealFromHash(ready: boolean) {
  useEffect(() => {
    if (!ready) return;
    const reveal = () => {
      const match = /^#message-([0-9a-f-]{36})$/u.exec(window.location.hash);
      // After the chat's own first scroll to the newest message.
      if (match) window.requestAnimationFrame(() => revealMessage(match[1]));
    };
    reveal();
    window.addEventListener('hashchange', reveal);
    return () => window.removeEventListener('hashchange', reveal);
  }, [ready]);
}
