import type { ReactNode } from 'react';
import type { ReplayResponse } from '../api-types';
import { formatTokens } from '../ui/format';
import { RedactedText } from '../ui/redacted-text';

// One row of a replay's comparison per item added, removed, moved or changed.

export type Diff = ReplayResponse['diff'];
type Item = Diff['added'][number];

const KIND_LABEL: Record<Item['kind'], string> = { fact: 'fact', summary: 'summary', episode: 'episode', history: 'message' };

const ROW_STYLES = {
  added: {
    row: 'border-emerald-600/30 bg-emerald-50/70 dark:border-emerald-400/30 dark:bg-emerald-950/40',
    sign: 'bg-emerald-600 text-white dark:bg-emerald-400 dark:text-emerald-950',
    mark: '+',
    label: 'Added',
  },
  removed: {
    row: 'border-danger/30 bg-danger-soft/70',
    sign: 'bg-danger text-white dark:text-surface',
    mark: '−',
    label: 'Removed',
  },
} as const;

function ItemLabel({ item }: { item: Pick<Item, 'kind' | 'n' | 'tokens' | 'role' | 'rank'> }) {
  const what =
    item.kind === 'history' ? (item.role === 'assistant' ? 'reply' : item.role === 'user' ? 'question' : 'message') : KIND_LABEL[item.kind];
  return (
    <span className="tabular-nums">
      {what}
      {item.kind !== 'history' ? ` #${item.rank}` : ''}
      {item.n !== null ? ` · [${item.n}]` : ''} · {formatTokens(item.tokens)} tok
    </span>
  );
}

function RowShell({
  testId,
  itemKey,
  className,
  sign,
  signClass,
  signTitle,
  children,
}: {
  testId: string;
  itemKey: string;
  className: string;
  sign: ReactNode;
  signClass: string;
  signTitle: string;
  children: ReactNode;
}) {
  return (
    <li data-testid={testId} data-key={itemKey} className={`flex items-start gap-2 rounded-lg border px-2.5 py-2 text-sm ${className}`}>
      <span
        className={`mt-0.5 grid h-4 min-w-4 shrink-0 place-items-center rounded px-0.5 font-mono text-[11px] leading-none font-semibold ${signClass}`}
        title={signTitle}
        role="img"
        aria-label={signTitle}
      >
        {sign}
      </span>
      <div className="min-w-0 flex-1">{children}</div>
    </li>
  );
}

export function ChangeRow({ change, item }: { change: 'added' | 'removed'; item: Item }) {
  const style = ROW_STYLES[change];
  return (
    <RowShell
      testId={`replay-${change}`}
      itemKey={item.key}
      className={style.row}
      sign={style.mark}
      signClass={style.sign}
      signTitle={style.label}
    >
      <p className="line-clamp-3 leading-5 break-words" title={item.text}>
        {item.text ? <RedactedText text={item.text} /> : <span className="text-faint italic">(no text)</span>}
      </p>
      <p className="mt-0.5 text-[11px] text-muted">
        <ItemLabel item={item} /> · <span data-testid="replay-why">{item.why}</span>
      </p>
    </RowShell>
  );
}

export function RerankRow({ item }: { item: Diff['reranked'][number] }) {
  const up = item.after < item.before;
  return (
    <RowShell
      testId="replay-reranked"
      itemKey={item.key}
      className="border-accent/25 bg-accent-soft/50"
      sign={up ? '↑' : '↓'}
      signClass="bg-accent text-on-accent"
      signTitle={up ? 'Ranked higher' : 'Ranked lower'}
    >
      <p className="line-clamp-2 leading-5 break-words" title={item.text}>
        <RedactedText text={item.text} />
      </p>
      <p className="mt-0.5 text-[11px] text-muted tabular-nums" data-testid="replay-rank">
        {KIND_LABEL[item.kind]} #{item.before} → #{item.after} among the kept {item.block}
      </p>
    </RowShell>
  );
}

export function ChangedRow({ item }: { item: Diff['changed'][number] }) {
  const { head, before, after, tail } = changedPart(item.before, item.after);
  return (
    <RowShell
      testId="replay-changed"
      itemKey={item.key}
      className="border-warn/30 bg-warn-soft/60"
      sign="~"
      signClass="bg-warn text-surface"
      signTitle="Same item, other text"
    >
      <p className="leading-5 break-words">
        {head ? <span className="text-muted">{head}</span> : null}
        {before ? (
          <del className="rounded-sm bg-danger-soft px-0.5 text-danger decoration-danger/60" title="Sent then">
            <RedactedText text={before} />
          </del>
        ) : null}
        {after ? (
          <ins
            className="rounded-sm bg-emerald-50 px-0.5 text-emerald-800 no-underline dark:bg-emerald-950/60 dark:text-emerald-300"
            title="Sent now"
          >
            <RedactedText text={after} />
          </ins>
        ) : null}
        {tail ? <span className="text-muted">{tail}</span> : null}
      </p>
      <p className="mt-0.5 text-[11px] text-muted">
        {item.kind === 'history' ? 'message in the window' : KIND_LABEL[item.kind]} · same item, its text reads differently now
      </p>
    </RowShell>
  );
}

const CONTEXT_CHARS = 48;

/**
 * The part of a text that changed, with a little context either side: the common start and end
 * are cut at word boundaries and shortened with an ellipsis, so a change deep in a long reply shows.
 */
function changedPart(was: string, now: string): { head: string; before: string; after: string; tail: string } {
  let start = 0;
  while (start < was.length && start < now.length && was[start] === now[start]) start++;
  let end = 0;
  while (end < was.length - start && end < now.length - start && was[was.length - 1 - end] === now[now.length - 1 - end]) end++;
  // Whole words (and so whole markers like [redacted]): the changed part starts and ends at a space,
  // unless none is near (Chinese, Japanese: no spaces), where characters are fine.
  let wordStart = start;
  while (wordStart > 0 && !/\s/u.test(was[wordStart - 1])) wordStart--;
  if (start - wordStart <= 24) start = wordStart;
  let wordEnd = end;
  while (wordEnd > 0 && !/\s/u.test(was[was.length - wordEnd]) && !/\s/u.test(was[was.length - wordEnd - 1])) wordEnd--;
  if (end - wordEnd <= 24) end = wordEnd;
  const prefix = was.slice(0, start);
  const suffix = was.slice(was.length - end);
  return {
    head: prefix.length > CONTEXT_CHARS ? `…${prefix.slice(prefix.length - CONTEXT_CHARS).replace(/^\S*\s/u, '')}` : prefix,
    before: was.slice(start, was.length - end),
    after: now.slice(start, now.length - end),
    tail: suffix.length > CONTEXT_CHARS ? `${suffix.slice(0, CONTEXT_CHARS).replace(/\s\S*$/u, '')}…` : suffix,
  };
}
