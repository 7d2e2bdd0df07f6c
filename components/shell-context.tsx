'use client';

import { createContext, useContext } from 'react';

/** The inspector column: a collapsible column from the lg breakpoint up, a drawer below it. */
export type InspectorLayout = {
  /** This page has an inspector. */
  available: boolean;
  /** Shown right now (the column on a wide screen, the drawer on a narrow one). */
  open: boolean;
  /** Narrow screen: the inspector is a drawer over the chat. */
  drawer: boolean;
  show: () => void;
  hide: () => void;
  toggle: () => void;
};

type ShellValue = { openSidebar: () => void; inspector: InspectorLayout };
const noop = () => {};
export const ShellContext = createContext<ShellValue>({
  openSidebar: noop,
  inspector: { available: false, open: false, drawer: false, show: noop, hide: noop, toggle: noop },
});
export const useShell = () => useContext(ShellContext);
