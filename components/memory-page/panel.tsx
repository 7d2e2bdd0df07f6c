import type { ReactNode } from 'react';

/** A link that opens a message in its conversation: the chat scrolls to it and flashes it (`useRevealFromHash`, inspector/store.tsx). */
export const messageHref = (conversationId: string, messageId: string) => `/c/${conversationId}#message-${messageId}`;

/** One part of the page: a card with a heading, a line on what it is, optional actions, and its body. */
export function Panel({
  id,
  title,
  description,
  meta,
  actions,
  tone = 'neutral',
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  meta?: ReactNode;
  actions?: ReactNode;
  tone?: 'neutral' | 'danger';
  children: ReactNode;
}) {
  const titleId = `${id}-title`;
  return (
    <section
      id={id}
      aria-labelledby={titleId}
      data-testid={`memory-${id}`}
      className={`scroll-mt-4 rounded-xl border bg-surface shadow-xs ${tone === 'danger' ? 'border-danger/30' : 'border-line'}`}
    >
      <header className="flex flex-wrap items-start gap-x-4 gap-y-2 px-4 pt-4 sm:px-5">
        <div className="min-w-0 flex-1 basis-64">
          <h2
            id={titleId}
            className={`flex flex-wrap items-baseline gap-x-2 text-base font-semibold tracking-tight ${tone === 'danger' ? 'text-danger' : ''}`}
          >
            {title}
            {meta ? <span className="text-sm font-normal text-muted">{meta}</span> : null}
          </h2>
          <p className="mt-1 text-sm leading-6 text-muted">{description}</p>
        </div>
        {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
      </header>
      <div className="px-4 pt-3 pb-4 sm:px-5">{children}</div>
    </section>
  );
}
