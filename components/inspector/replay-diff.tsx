import type { BlockName, ReplayResponse } from '../api-types';
import { Badge } from '../ui/badge';
import { formatDateTime, formatTokens } from '../ui/format';
import { RedactedText } from '../ui/redacted-text';
import { BLOCKS } from './budget-section';
import { ChangedRow, ChangeRow, type Diff, RerankRow } from './replay-rows';

// What changed between the context sent and the context assembled again.

export function digest(diff: Diff): string {
  const parts = [
    diff.added.length ? `${diff.added.length} added` : '',
    diff.removed.length ? `${diff.removed.length} removed` : '',
    diff.reranked.length ? `${diff.reranked.length} re-ranked` : '',
    diff.changed.length ? `${diff.changed.length} changed` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'no difference';
}

const signed = (n: number) => (n > 0 ? `+${formatTokens(n)}` : n < 0 ? `−${formatTokens(-n)}` : '0');

// ---- the difference

export function ReplayDiff({ result }: { result: ReplayResponse }) {
  const { diff, options } = result;
  const nothing = diff.added.length + diff.removed.length + diff.reranked.length + diff.changed.length === 0;
  const queryChanged = diff.retrievalQuery.before !== diff.retrievalQuery.after;
  const totalDelta = diff.total.after - diff.total.before;
  return (
    <div
      data-testid="replay-diff"
      data-added={diff.added.length}
      data-removed={diff.removed.length}
      data-reranked={diff.reranked.length}
      data-changed={diff.changed.length}
      className="space-y-3"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        {nothing ? (
          <Badge testId="replay-same">Same items as sent</Badge>
        ) : (
          <>
            {diff.added.length ? <Badge tone="good">+{diff.added.length} added</Badge> : null}
            {diff.removed.length ? <Badge tone="danger">−{diff.removed.length} removed</Badge> : null}
            {diff.reranked.length ? <Badge tone="accent">↕ {diff.reranked.length} re-ranked</Badge> : null}
            {diff.changed.length ? <Badge tone="warn">~ {diff.changed.length} changed</Badge> : null}
          </>
        )}
        <span className="ml-auto text-xs text-muted tabular-nums" data-testid="replay-total">
          {formatTokens(diff.total.before)} → {formatTokens(diff.total.after)} tokens{' '}
          <span className={totalDelta > 0 ? 'text-emerald-700 dark:text-emerald-300' : totalDelta < 0 ? 'text-danger' : 'text-faint'}>
            ({signed(totalDelta)})
          </span>
        </span>
      </div>

      <div data-testid="replay-query" data-changed={queryChanged}>
        <h4 className="mb-1 text-xs font-medium text-muted">
          Search query {queryChanged ? '' : <span className="font-normal text-faint">(unchanged)</span>}
        </h4>
        {queryChanged ? (
          <div className="grid grid-cols-[auto_minmax(0,1fr)] items-baseline gap-x-2 gap-y-1 text-[12.5px]">
            <span className="text-[11px] text-faint">sent</span>
            <code className="rounded bg-danger-soft px-1.5 py-0.5 font-mono break-words text-danger line-through decoration-danger/50">
              <RedactedText text={diff.retrievalQuery.before} />
            </code>
            <span className="text-[11px] text-faint">now</span>
            <code className="rounded bg-emerald-50 px-1.5 py-0.5 font-mono break-words text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-300">
              <RedactedText text={diff.retrievalQuery.after} />
            </code>
          </div>
        ) : (
          <code className="rounded bg-subtle px-1.5 py-0.5 font-mono text-[12.5px] leading-6 break-words">
            <RedactedText text={diff.retrievalQuery.after} />
          </code>
        )}
      </div>

      {nothing ? (
        <p className="text-sm text-muted" data-testid="replay-nothing">
          {options.mode === 'stored'
            ? 'The context as it was stored for this reply: the items sent, as they were.'
            : 'Today’s memory gives this question the same items as were sent: nothing added, removed or re-ranked.'}
        </p>
      ) : (
        <ul className="space-y-1.5" aria-label="What changed">
          {diff.added.map((item) => (
            <ChangeRow key={`+${item.key}`} change="added" item={item} />
          ))}
          {diff.removed.map((item) => (
            <ChangeRow key={`-${item.key}`} change="removed" item={item} />
          ))}
          {diff.reranked.map((item) => (
            <RerankRow key={`~${item.key}`} item={item} />
          ))}
          {diff.changed.map((item) => (
            <ChangedRow key={`*${item.key}`} item={item} />
          ))}
        </ul>
      )}

      <TokenTable diff={diff} />

      <p className="text-[11px] leading-4 text-faint" data-testid="replay-options">
        Replayed at the question&apos;s time ({formatDateTime(options.now)}) with today&apos;s memory: budget {formatTokens(options.budget)}{' '}
        · window {options.window ?? '—'} · facts top&nbsp;k {options.factsTopK ?? '—'} · episodes top&nbsp;k {options.episodesTopK ?? '—'} ·
        scope {options.episodeScope ?? '—'}
        {options.overridden.length ? ` (changed: ${options.overridden.join(', ')})` : ''}.
      </p>
    </div>
  );
}

function TokenTable({ diff }: { diff: Diff }) {
  const { before, after } = diff.tokensByBlock;
  const value = (blocks: Record<BlockName, number>, name: BlockName) => blocks[name] ?? 0;
  return (
    <table className="w-full text-left text-xs" data-testid="replay-tokens">
      <caption className="mb-1 text-left text-xs font-medium text-muted">Tokens per block</caption>
      <thead className="text-faint">
        <tr>
          <th className="py-1 font-medium">Block</th>
          <th className="py-1 text-right font-medium">Sent</th>
          <th className="py-1 text-right font-medium">Replay</th>
          <th className="py-1 text-right font-medium">Change</th>
        </tr>
      </thead>
      <tbody>
        {BLOCKS.map((block) => {
          const was = value(before, block.name);
          const now = value(after, block.name);
          const delta = now - was;
          return (
            <tr
              key={block.name}
              className="border-t border-line"
              data-testid="replay-block"
              data-block={block.name}
              data-before={was}
              data-after={now}
            >
              <td className="py-1">
                <span className="inline-flex items-center gap-1.5">
                  <span className={`size-2.5 rounded-sm ${block.swatch}`} aria-hidden="true" />
                  {block.label}
                </span>
              </td>
              <td className="py-1 text-right tabular-nums">{formatTokens(was)}</td>
              <td className="py-1 text-right tabular-nums">{formatTokens(now)}</td>
              <td
                className={`py-1 text-right tabular-nums ${delta > 0 ? 'text-emerald-700 dark:text-emerald-300' : delta < 0 ? 'text-danger' : 'text-faint'}`}
              >
                {delta === 0 ? '—' : signed(delta)}
              </td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr className="border-t border-line font-medium">
          <td className="pt-1">Total</td>
          <td className="pt-1 text-right tabular-nums">{formatTokens(diff.total.before)}</td>
          <td className="pt-1 text-right tabular-nums">{formatTokens(diff.total.after)}</td>
          <td className="pt-1 text-right tabular-nums">
            {diff.total.after === diff.total.before ? '—' : signed(diff.total.after - diff.total.before)}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
