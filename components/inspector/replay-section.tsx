'use client';

import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { onMemoryChanged } from '../api';
import { Badge, Notice } from '../ui/badge';
import { formatDateTime, formatTokens } from '../ui/format';
import { Skeleton } from '../ui/loading';
import { RedactedText } from '../ui/redacted-text';
import { Section } from '../ui/section';
import { BLOCKS } from './budget-section';
import { useEndpoints } from './endpoints';
import type { BlockName, ReplayOptions, ReplayResponse, TurnRecord } from './types';

type Diff = ReplayResponse['diff'];
type Item = Diff['added'][number];
type Form = {
  budget: string;
  window: string;
  factsTopK: string;
  episodesTopK: string;
  episodeScope: '' | 'conversation' | 'related' | 'user';
};

const EMPTY_FORM: Form = { budget: '', window: '', factsTopK: '', episodesTopK: '', episodeScope: '' };

/**
 * Replay: this reply's context assembled again without calling the model, with today's memory and
 * optionally other settings, and what changed against what was actually sent.
 */
export function ReplaySection({ record }: { record: TurnRecord }) {
  const [form, setForm] = useState<Form>(EMPTY_FORM);
  const [stale, setStale] = useState(false);
  const endpoints = useEndpoints();
  const replay = useMutation({
    mutationFn: (options: ReplayOptions) => endpoints.replay(record.assistantMessageId, options),
    onSuccess: () => setStale(false),
  });
  // A correction after the replay makes its result out of date: say so instead of showing it as current.
  useEffect(() => onMemoryChanged(() => setStale(true)), []);
  const streaming = record.status === 'streaming';
  const result = replay.data;

  return (
    <Section
      testId="replay-section"
      title="Replay"
      meta={result ? digest(result.diff) : 'assemble again, without the model'}
      defaultOpen={false}
    >
      <p className="text-xs leading-5 text-muted">
        Assembles this reply&apos;s context again from today&apos;s memory, at the time it was asked, with the same question and the
        messages before it, and compares it with what was sent. The chat model is not called and nothing is saved.
      </p>
      <form
        className="mt-3"
        onSubmit={(event) => {
          event.preventDefault();
          replay.mutate(optionsOf(form));
        }}
      >
        <fieldset className="grid grid-cols-2 gap-x-3 gap-y-2" disabled={replay.isPending}>
          <legend className="sr-only">Settings for the replay (empty: as configured)</legend>
          <NumberInput
            label="Budget"
            unit="tokens"
            testId="replay-budget"
            value={form.budget}
            placeholder={String(record.budget?.budget ?? '')}
            min={1}
            max={2_000_000}
            onChange={(budget) => setForm({ ...form, budget })}
          />
          <NumberInput
            label="Window"
            unit="messages"
            testId="replay-window"
            value={form.window}
            placeholder={result?.options.window != null ? String(result.options.window) : 'default'}
            min={0}
            max={1000}
            onChange={(window) => setForm({ ...form, window })}
          />
          <NumberInput
            label="Facts top k"
            testId="replay-facts-top-k"
            value={form.factsTopK}
            placeholder="auto"
            min={0}
            max={200}
            onChange={(factsTopK) => setForm({ ...form, factsTopK })}
          />
          <NumberInput
            label="Episodes top k"
            testId="replay-episodes-top-k"
            value={form.episodesTopK}
            placeholder="auto"
            min={0}
            max={200}
            onChange={(episodesTopK) => setForm({ ...form, episodesTopK })}
          />
          <ScopeSelect value={form.episodeScope} onChange={(episodeScope) => setForm({ ...form, episodeScope })} />
        </fieldset>
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <button
            type="submit"
            data-testid="replay-run"
            disabled={replay.isPending || streaming}
            className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:bg-accent-hover disabled:cursor-not-allowed disabled:opacity-50"
          >
            {replay.isPending ? 'Replaying…' : "Replay with today's memory"}
          </button>
          {Object.values(form).some(Boolean) ? (
            <button
              type="button"
              onClick={() => setForm(EMPTY_FORM)}
              className="rounded-md px-2 py-1.5 text-xs text-muted hover:bg-subtle hover:text-fg"
            >
              Reset settings
            </button>
          ) : null}
          {streaming ? <span className="text-xs text-muted">Available once the reply has finished.</span> : null}
        </div>
      </form>

      <div className="mt-3" aria-live="polite">
        {replay.isPending && !result ? <Skeleton lines={4} /> : null}
        {replay.isError ? (
          <Notice tone="danger" testId="replay-error">
            Could not replay: {replay.error.message}
          </Notice>
        ) : null}
        {result && !replay.isError ? (
          <>
            {stale ? (
              <div className="mb-2">
                <Notice tone="warn" testId="replay-stale">
                  Memory changed since this replay. Replay again to see it.
                </Notice>
              </div>
            ) : null}
            <ReplayDiff result={result} />
          </>
        ) : null}
      </div>
    </Section>
  );
}

function optionsOf(form: Form): ReplayOptions {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const options: ReplayOptions = { mode: 'today' };
  const budget = number(form.budget);
  const window = number(form.window);
  const factsTopK = number(form.factsTopK);
  const episodesTopK = number(form.episodesTopK);
  if (budget !== undefined) options.budget = budget;
  if (window !== undefined) options.window = window;
  if (factsTopK !== undefined) options.factsTopK = factsTopK;
  if (episodesTopK !== undefined) options.episodesTopK = episodesTopK;
  if (form.episodeScope) options.episodeScope = form.episodeScope;
  return options;
}

function NumberInput(props: {
  label: string;
  unit?: string;
  testId: string;
  value: string;
  placeholder: string;
  min: number;
  max: number;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-[11px] font-medium text-muted">
        {props.label}
        {props.unit ? <span className="font-normal text-faint"> ({props.unit})</span> : null}
      </label>
      <input
        id={id}
        data-testid={props.testId}
        type="number"
        inputMode="numeric"
        step={1}
        min={props.min}
        max={props.max}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(event) => props.onChange(event.target.value)}
        className="mt-0.5 block w-full rounded-md border border-line bg-canvas px-2 py-1 text-sm tabular-nums placeholder:text-faint focus:border-accent focus:outline-none"
      />
    </div>
  );
}

function ScopeSelect({ value, onChange }: { value: Form['episodeScope']; onChange: (value: Form['episodeScope']) => void }) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-[11px] font-medium text-muted">
        Episode scope
      </label>
      <select
        id={id}
        data-testid="replay-scope"
        value={value}
        onChange={(event) => onChange(event.target.value as Form['episodeScope'])}
        className="mt-0.5 block w-full rounded-md border border-line bg-canvas px-1.5 py-1 text-sm focus:border-accent focus:outline-none"
      >
        <option value="">as configured</option>
        <option value="conversation">this conversation</option>
        <option value="related">this conversation, then related turns of others</option>
        <option value="user">all conversations</option>
      </select>
    </div>
  );
}

function digest(diff: Diff): string {
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

function ReplayDiff({ result }: { result: ReplayResponse }) {
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
          Today&apos;s memory gives this question the same items as were sent: nothing added, removed or re-ranked.
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
        aria-label={signTitle}
      >
        {sign}
      </span>
      <div className="min-w-0 flex-1">{children}</div>
    </li>
  );
}

function ChangeRow({ change, item }: { change: 'added' | 'removed'; item: Item }) {
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

function RerankRow({ item }: { item: Diff['reranked'][number] }) {
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

function ChangedRow({ item }: { item: Diff['changed'][number] }) {
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
