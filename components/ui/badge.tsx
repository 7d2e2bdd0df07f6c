import type { ReactNode } from 'react';

export type Tone = 'neutral' | 'accent' | 'good' | 'warn' | 'danger';

const tones: Record<Tone, string> = {
  neutral: 'border-line bg-subtle text-muted',
  accent: 'border-accent/30 bg-accent-soft text-accent',
  good: 'border-emerald-600/25 bg-emerald-50 text-emerald-700 dark:border-emerald-400/25 dark:bg-emerald-950/60 dark:text-emerald-300',
  warn: 'border-warn/30 bg-warn-soft text-warn',
  danger: 'border-danger/30 bg-danger-soft text-danger',
};

export function Badge({
  tone = 'neutral',
  children,
  testId,
  title,
}: {
  tone?: Tone;
  children: ReactNode;
  testId?: string;
  title?: string;
}) {
  return (
    <span
      data-testid={testId}
      title={title}
      className={`inline-flex items-center gap-1 rounded-full border px-1.5 py-px text-[11px] leading-4 font-medium whitespace-nowrap ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

export function Notice({
  tone = 'neutral',
  children,
  testId,
}: {
  tone?: 'neutral' | 'danger' | 'warn';
  children: ReactNode;
  testId?: string;
}) {
  const style =
    tone === 'danger'
      ? 'border-danger/30 bg-danger-soft text-danger'
      : tone === 'warn'
        ? 'border-warn/30 bg-warn-soft text-warn'
        : 'border-line bg-subtle text-muted';
  return (
    <div data-testid={testId} role={tone === 'danger' ? 'alert' : undefined} className={`rounded-lg border px-3 py-2 text-sm ${style}`}>
      {children}
    </div>
  );
}

/** A short line that announces the result of an action to screen readers too. */
export function StatusLine({ tone = 'good', children, testId }: { tone?: 'good' | 'danger'; children: ReactNode; testId?: string }) {
  return (
    <p
      role={tone === 'danger' ? 'alert' : 'status'}
      data-testid={testId}
      className={`rounded-lg border px-3 py-2 text-sm ${
        tone === 'danger'
          ? 'border-danger/30 bg-danger-soft text-danger'
          : 'border-emerald-600/25 bg-emerald-50 text-emerald-800 dark:border-emerald-400/25 dark:bg-emerald-950/60 dark:text-emerald-200'
      }`}
    >
      {children}
    </p>
  );
}
