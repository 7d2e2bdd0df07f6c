'use client';

import { memo } from 'react';
import { Bar, BarChart, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import type { BlockName } from '../api-types';
import { formatMs, formatTokens } from '../ui/format';

// The inspector's charts (recharts). Colours come from classes (light and dark), so the SVG follows
// the colour scheme like the rest of the page; animation is off: the charts redraw as a reply's
// record arrives and again when it is final.

/** Fill classes per block, shared with the budget's legend swatches. */
const BLOCK_FILL: Record<BlockName, string> = {
  required: 'fill-zinc-400 dark:fill-zinc-500',
  facts: 'fill-indigo-500 dark:fill-indigo-400',
  summary: 'fill-amber-500 dark:fill-amber-400',
  episodes: 'fill-emerald-500 dark:fill-emerald-400',
  history: 'fill-sky-500 dark:fill-sky-400',
};

const STROKE: Record<BlockName, string> = {
  required: 'stroke-zinc-400 dark:stroke-zinc-500',
  facts: 'stroke-indigo-500 dark:stroke-indigo-400',
  summary: 'stroke-amber-500 dark:stroke-amber-400',
  episodes: 'stroke-emerald-500 dark:stroke-emerald-400',
  history: 'stroke-sky-500 dark:stroke-sky-400',
};

const tick = { fill: 'currentColor', fontSize: 11 };

type TooltipProps = { active?: boolean; payload?: ReadonlyArray<{ payload?: unknown }> };

export type BlockBar = { block: BlockName; label: string; kept: number; dropped: number; items: number; droppedItems: number };

/** Tokens per block: what was sent (solid) and what was recalled but left out (pale, outlined). Memoised: pass stable data. */
export const BudgetChart = memo(function BudgetChart({ data }: { data: BlockBar[] }) {
  const summary = data
    .map((d) => `${d.label}: ${formatTokens(d.kept)} tokens sent${d.dropped > 0 ? `, ${formatTokens(d.dropped)} dropped` : ''}`)
    .join('; ');
  return (
    <figure className="text-muted" data-testid="budget-chart" role="img" aria-label={`Tokens per block. ${summary}.`}>
      <BarChart
        responsive
        layout="vertical"
        data={data}
        style={{ width: '100%', height: 28 + data.length * 26 }}
        margin={{ top: 2, right: 8, bottom: 0, left: 0 }}
        barCategoryGap={5}
        accessibilityLayer={false}
      >
        <XAxis type="number" tick={tick} tickLine={false} axisLine={false} tickFormatter={(v: number) => compact(v)} height={18} />
        <YAxis type="category" dataKey="label" tick={tick} tickLine={false} axisLine={false} width={68} />
        <Tooltip
          cursor={{ className: 'fill-subtle' }}
          content={(props) => <BudgetTooltip active={props.active} payload={props.payload} />}
          isAnimationActive={false}
        />
        <Bar dataKey="kept" name="sent" stackId="tokens" isAnimationActive={false} minPointSize={0}>
          {data.map((d) => (
            <Cell key={d.block} className={BLOCK_FILL[d.block]} />
          ))}
        </Bar>
        <Bar dataKey="dropped" name="dropped" stackId="tokens" isAnimationActive={false} fillOpacity={0.22} strokeDasharray="3 2">
          {data.map((d) => (
            <Cell key={d.block} className={`${BLOCK_FILL[d.block]} ${STROKE[d.block]}`} />
          ))}
        </Bar>
      </BarChart>
    </figure>
  );
});

function BudgetTooltip({ active, payload }: TooltipProps) {
  const row = payload?.[0]?.payload as BlockBar | undefined;
  if (!active || !row) return null;
  return (
    <div className="rounded-md border border-line bg-surface px-2 py-1 text-xs text-fg shadow-md">
      <p className="font-medium">{row.label}</p>
      <p className="tabular-nums">
        {formatTokens(row.kept)} tokens sent · {row.items - row.droppedItems} item{row.items - row.droppedItems === 1 ? '' : 's'}
      </p>
      {row.dropped > 0 || row.droppedItems > 0 ? (
        <p className="text-muted tabular-nums">
          {formatTokens(row.dropped)} tokens left out · {row.droppedItems} item{row.droppedItems === 1 ? '' : 's'}
        </p>
      ) : null}
    </div>
  );
}

export type TimelineStep = { step: string; start: number; ms: number; firstTokenMs?: number | null };

/**
 * The turn as a timeline: each step from where it started; the generate step split at its first
 * token (waiting for the model, then streaming). Memoised: pass stable steps.
 */
export const TimelineChart = memo(function TimelineChart({ steps }: { steps: TimelineStep[] }) {
  const data = steps.map((s) => {
    const first = s.step === 'generate' && typeof s.firstTokenMs === 'number' ? Math.min(s.firstTokenMs, s.ms) : null;
    return {
      step: s.step,
      start: s.start,
      run: first === null ? s.ms : 0,
      wait: first ?? 0,
      stream: first === null ? 0 : s.ms - first,
      ms: s.ms,
      firstTokenMs: first,
    };
  });
  const last = Math.max(1, ...data.map((d) => d.start + d.ms));
  const step = niceStep(last / 4);
  const ticks = Array.from({ length: Math.ceil(last / step) + 1 }, (_, i) => i * step);
  const end = ticks.at(-1)!;
  return (
    <figure
      className="text-muted"
      data-testid="timeline-chart"
      role="img"
      aria-label={`Timeline: ${data.map((d) => `${d.step} ${formatMs(d.ms)}${d.firstTokenMs !== null ? `, first token after ${formatMs(d.firstTokenMs)}` : ''}`).join('; ')}`}
    >
      <BarChart
        responsive
        layout="vertical"
        data={data}
        style={{ width: '100%', height: 26 + data.length * 20 }}
        margin={{ top: 2, right: 10, bottom: 0, left: 0 }}
        barCategoryGap={3}
        accessibilityLayer={false}
      >
        <XAxis
          type="number"
          domain={[0, end]}
          ticks={ticks}
          tick={tick}
          tickLine={false}
          axisLine={false}
          tickFormatter={(v: number) => (step >= 1000 ? `${v / 1000} s` : `${+v.toFixed(2)} ms`)}
          height={18}
        />
        <YAxis
          type="category"
          dataKey="step"
          interval={0}
          tick={{ ...tick, fontSize: 10.5, fontFamily: 'var(--font-mono)' }}
          tickLine={false}
          axisLine={false}
          width={146}
        />
        <Tooltip
          cursor={{ className: 'fill-subtle' }}
          content={(props) => <TimelineTooltip active={props.active} payload={props.payload} />}
          isAnimationActive={false}
        />
        <Bar dataKey="start" stackId="t" fill="transparent" isAnimationActive={false} />
        <Bar dataKey="run" stackId="t" className="fill-accent" isAnimationActive={false} minPointSize={2} />
        <Bar dataKey="wait" stackId="t" className="fill-amber-400 dark:fill-amber-300" isAnimationActive={false} />
        <Bar dataKey="stream" stackId="t" className="fill-accent" isAnimationActive={false} />
      </BarChart>
    </figure>
  );
});

function TimelineTooltip({ active, payload }: TooltipProps) {
  const row = payload?.[0]?.payload as { step: string; start: number; ms: number; firstTokenMs: number | null } | undefined;
  if (!active || !row) return null;
  return (
    <div className="rounded-md border border-line bg-surface px-2 py-1 text-xs text-fg shadow-md">
      <p className="font-mono font-medium">{row.step}</p>
      <p className="tabular-nums">
        {formatMs(row.ms)} <span className="text-muted">from {formatMs(row.start)}</span>
      </p>
      {row.firstTokenMs !== null ? <p className="text-muted tabular-nums">first token after {formatMs(row.firstTokenMs)}</p> : null}
    </div>
  );
}

/** A round step at or above `value` (1, 2 or 5 times a power of ten), for an axis' ticks. */
function niceStep(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(value, 1e-3)));
  return ([1, 2, 5, 10].find((m) => m * power >= value) ?? 10) * power;
}

function compact(value: number): string {
  if (value >= 10_000) return `${Math.round(value / 1000)}k`;
  if (value >= 1000) return `${(value / 1000).toFixed(1).replace(/\.0$/u, '')}k`;
  return String(Math.round(value));
}
