// One set of button and input styles for the whole app.

export const buttons = {
  primary:
    'inline-flex items-center justify-center gap-1.5 rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-on-accent shadow-xs hover:bg-accent-hover disabled:cursor-not-allowed disabled:opacity-60',
  secondary:
    'inline-flex items-center justify-center gap-1.5 rounded-lg border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:bg-subtle disabled:cursor-not-allowed disabled:opacity-60',
  danger:
    'inline-flex items-center justify-center gap-1.5 rounded-lg bg-danger px-3 py-1.5 text-sm font-medium text-white hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60 dark:text-canvas',
  quiet:
    'inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-muted hover:bg-subtle hover:text-fg disabled:opacity-50',
  quietDanger:
    'inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-muted hover:bg-danger-soft hover:text-danger disabled:opacity-50',
} as const;

export const inputStyle =
  'w-full rounded-lg border border-line bg-canvas px-3 py-2 text-sm placeholder:text-faint focus:border-accent focus:outline-none aria-[invalid=true]:border-danger';
