'use client';

import { memo, useMemo } from 'react';
import { saidElsewhere, sentInWindow } from '@/lib/shared/budget-reasons';
import type { BlockName, BudgetReport, TurnRecord } from '../api-types';
import { Badge } from '../ui/badge';
import { Field } from '../ui/field';
import { formatTokens } from '../ui/format';
import { Disclosure, Section } from '../ui/section';
import { type BlockBar, BudgetChart } from './charts';
import { useDescribeKey } from './describe-key';
import { TechnicalDetails } from './technical-details';

export const BLOCKS: Array<{ name: BlockName; label: string; swatch: string }> = [
  { name: 'required', label: 'Required', swatch: 'bg-zinc-400 dark:bg-zinc-500' },
  { name: 'facts', label: 'Facts', swatch: 'bg-indigo-500 dark:bg-indigo-400' },
  { name: 'summary', label: 'Summary', swatch: 'bg-amber-500 dark:bg-amber-400' },
  { name: 'episodes', label: 'Episodes', swatch: 'bg-emerald-500 dark:bg-emerald-400' },
  { name: 'history', label: 'History', swatch: 'bg-sky-500 dark:bg-sky-400' },
];

/**
 * The block a decision's tokens count towards in the bars. A section header is recorded as a
 * `required` line, but its tokens are counted in its own block's total (as the server sums them).
 */
const blockOf = (decision: { key: string; block: string }) =>
  decision.key.startsWith('header:') ? `${decision.key.slice('header:'.length)} (header)` : decision.block;

/** Per block: the tokens kept and left out, and how many items (section headers are not items). */
function blockBars(report: BudgetReport): BlockBar[] {
  return BLOCKS.map((block) => {
    const mine = report.decisions.filter((d) => d.block === block.name);
    const left = mine.filter((d) => !d.kept);
    return {
      block: block.name,
      label: block.label,
      kept: report.byBlock[block.name] ?? 0,
      dropped: left.reduce((sum, d) => sum + d.tokens, 0),
      items: mine.filter((d) => !d.key.startsWith('header:')).length,
      droppedItems: left.length,
    };
  });
}

const percent = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);
const formatPercent = (value: number) => `${value < 1 && value > 0 ? value.toFixed(1) : Math.round(value)}%`;

const BUDGET_HELP = (
  <>
    <p>
      Every figure here is in <b>tokens</b>, the pieces of words a model reads (a short English word is about one token). They are counted
      exactly, and the items&apos; tokens add up to the total.
    </p>
    <p>
      <b>Budget</b>: how much memlens may send with a question, leaving room for the reply.
    </p>
    <p>
      <b>Required</b> is always sent: the system prompt, the citation instructions, the question and the framing. Then each block in turn
      (facts, summary, earlier exchanges, recent messages) keeps whole items, best first, between its <b>floor</b> (room kept for it) and
      its <b>cap</b> (the most it may take). The recent messages are kept newest first and stop at the first one that does not fit.
    </p>
    <TechnicalDetails>
      <p>
        Tokens are counted with gpt-tokenizer in the model&apos;s encoding, with the chat framing: 4 tokens per message and 3 that prime the
        reply. Budget = (context window − reserved output) × BUDGET_SAFETY, unless CONTEXT_BUDGET is set.
      </p>
    </TechnicalDetails>
  </>
);

/** The token budget: how full it is, what each block took, and every keep/drop decision. */
export const BudgetSection = memo(function BudgetSection({ record }: { record: TurnRecord }) {
  const describeKey = useDescribeKey(record);
  const report = record.budget;
  const chartData = useMemo(() => (report ? blockBars(report) : []), [report]);
  if (!report) {
    return (
      <Section testId="budget" title="Budget" help={BUDGET_HELP}>
        <p className="text-sm text-muted">No budget was computed for this reply.</p>
      </Section>
    );
  }
  const { budget, total, byBlock, limits, decisions } = report;
  const used = percent(total, budget);
  const dropped = decisions.filter((d) => !d.kept);
  const blockTotal = (name: BlockName) => byBlock[name] ?? 0;
  return (
    <Section testId="budget" title="Budget" meta={`${formatTokens(total)} / ${formatTokens(budget)} tokens`} help={BUDGET_HELP}>
      <div className="flex items-baseline justify-between gap-3">
        <p className="text-sm" data-testid="budget-total" data-total={total} data-budget={budget}>
          <span className="text-lg font-semibold tabular-nums">{formatTokens(total)}</span>{' '}
          <span className="text-muted">of {formatTokens(budget)} tokens</span>
        </p>
        <span className={`text-xs tabular-nums ${total > budget ? 'text-danger' : 'text-muted'}`}>{formatPercent(used)} used</span>
      </div>

      {/* The budget as a whole: the used part, stacked by block. */}
      <div
        className="mt-2 flex h-3 w-full overflow-hidden rounded-full bg-subtle"
        role="img"
        aria-label={`${formatTokens(total)} of ${formatTokens(budget)} tokens used (${formatPercent(used)})`}
        data-testid="budget-bar"
      >
        {BLOCKS.map((block) =>
          blockTotal(block.name) > 0 ? (
            <div
              key={block.name}
              className={`${block.swatch} h-full`}
              style={{ width: `${Math.min(100, percent(blockTotal(block.name), budget))}%`, minWidth: 2 }}
              title={`${block.label}: ${formatTokens(blockTotal(block.name))} tokens`}
            />
          ) : null,
        )}
      </div>

      {/* What each block took, and what it recalled but left out. */}
      <p className="mt-3 mb-1 text-xs text-muted">Tokens per block: sent, and (pale) recalled but left out</p>
      <BudgetChart data={chartData} />
      <ul className="mt-2 grid grid-cols-1 gap-x-4 gap-y-0.5 text-xs sm:grid-cols-2">
        {BLOCKS.map((block) => (
          <li
            key={block.name}
            className="flex items-center gap-2"
            data-testid="budget-block"
            data-block={block.name}
            data-tokens={blockTotal(block.name)}
          >
            <span className={`size-2.5 shrink-0 rounded-sm ${block.swatch}`} aria-hidden="true" />
            <span>{block.label}</span>
            <span className="ml-auto tabular-nums text-muted">
              {formatTokens(blockTotal(block.name))}
              <span className="text-faint"> · {formatPercent(percent(blockTotal(block.name), total))}</span>
            </span>
          </li>
        ))}
      </ul>

      <div className="mt-3 border-t border-line pt-2 text-xs" data-testid="budget-limits">
        <dl>
          <Field label="Budget">
            <span className="tabular-nums">{formatTokens(limits.budget)} tokens</span>{' '}
            <span className="text-xs text-faint">(what may be sent, leaving room for the reply)</span>
          </Field>
        </dl>
        <TechnicalDetails>
          <dl>
            <Field label="Context window">
              <span className="tabular-nums">{formatTokens(limits.contextWindow)} tokens</span>
            </Field>
            <Field label="Reserved output">
              <span className="tabular-nums">{formatTokens(limits.reservedOutput)} tokens</span>
            </Field>
            <Field label="Encoding">
              <code className="font-mono text-[12.5px]">{limits.encoding}</code>
            </Field>
          </dl>
          <p>Budget = (window − reserved output) × a safety margin, unless configured.</p>
        </TechnicalDetails>
      </div>

      <div className="mt-2">
        <Disclosure
          testId="budget-decisions"
          label={
            <>
              Every decision ({decisions.length}
              {dropped.length > 0 ? `, ${dropped.length} dropped` : ''})
            </>
          }
        >
          <div className="mt-1 overflow-x-auto">
            <table className="w-full text-left text-xs">
              <caption className="sr-only">What was kept and what was dropped, with the tokens and the reason</caption>
              <thead className="text-faint">
                <tr>
                  <th className="py-1 pr-2 font-medium">Item</th>
                  <th className="py-1 pr-2 font-medium">Block</th>
                  <th className="py-1 pr-2 text-right font-medium">Tokens</th>
                  <th className="py-1 font-medium">Decision</th>
                </tr>
              </thead>
              <tbody>
                {decisions.map((decision) => (
                  <tr
                    key={decision.key}
                    data-testid="budget-decision"
                    data-key={decision.key}
                    data-kept={decision.kept}
                    className={`border-t border-line align-top ${decision.kept || sentInWindow(decision) || saidElsewhere(decision) ? '' : 'bg-warn-soft/60'}`}
                  >
                    <td className="max-w-[11rem] py-1 pr-2">
                      <span className="line-clamp-2 break-words" title={decision.key}>
                        {describeKey(decision.key)}
                      </span>
                    </td>
                    <td className="py-1 pr-2 text-muted">{blockOf(decision)}</td>
                    <td className="py-1 pr-2 text-right tabular-nums">{formatTokens(decision.tokens)}</td>
                    <td className="py-1">
                      <Badge tone={decision.kept ? 'good' : sentInWindow(decision) || saidElsewhere(decision) ? 'neutral' : 'warn'}>
                        {decision.kept
                          ? 'kept'
                          : sentInWindow(decision)
                            ? 'in window'
                            : saidElsewhere(decision)
                              ? 'said already'
                              : 'dropped'}
                      </Badge>
                      <span className="mt-0.5 block text-muted">{decision.reason}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Disclosure>
      </div>
    </Section>
  );
});
