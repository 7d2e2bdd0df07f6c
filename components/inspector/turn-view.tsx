'use client';

import { useState } from 'react';
import { BudgetSection } from './budget-section';
import { AttemptsBar, RecordRedactedNotice } from './record-notices';
import type { RecalledItem, TurnRecord } from './types';
import { Badge, describeActor, Field, formatDateTime, formatMs, formatScore, formatTokens, Notice, RedactedText, Section, sentInWindow, shortId, SourceLinks } from './ui';

/** Everything about one reply's context, section by section. */
export function TurnView({ record, onReveal }: { record: TurnRecord; onReveal: () => void }) {
  return (
    <div>
      <AttemptsBar record={record} />
      <RecordRedactedNotice record={record} />
      <RetrievalSection record={record} />
      <RecalledSection record={record} onReveal={onReveal} />
      <BudgetSection record={record} />
      <MessagesSection record={record} />
      <TimingSection record={record} />
    </div>
  );
}

// ---- retrieval

function RetrievalSection({ record }: { record: TurnRecord }) {
  const { retrieval, question, runs } = record;
  return (
    <Section
      testId="retrieval"
      title="Retrieval"
      meta={retrieval.rewritten ? 'rewritten query' : 'query as asked'}
    >
      <dl>
        <Field label="Question">
          <span data-testid="retrieval-question" className="leading-6">
            <RedactedText text={question.text} />
          </span>
        </Field>
        <Field label="Search query">
          <code data-testid="retrieval-query" className="rounded bg-subtle px-1.5 py-0.5 font-mono text-[12.5px] leading-6 break-words">
            <RedactedText text={retrieval.query} />
          </code>
        </Field>
        <Field label="How">
          <span className="flex flex-wrap items-center gap-1.5">
            <Badge testId="rewritten-badge" tone={retrieval.rewritten ? 'accent' : 'neutral'}>
              {retrieval.rewritten ? 'Rewritten' : 'Not rewritten'}
            </Badge>
            <Badge
              testId="cache-badge"
              tone={retrieval.cached ? 'good' : 'neutral'}
              title={retrieval.cached ? 'The rewrite came from the retrieval cache' : 'The rewrite was computed for this turn'}
            >
              {retrieval.cached ? 'Cache hit' : 'No cache hit'}
            </Badge>
          </span>
        </Field>
        <Field label="Reason">
          <span data-testid="retrieval-reason" className="text-muted">
            {retrieval.reason || '—'}
          </span>
        </Field>
        <Field label="Dates resolved">
          {retrieval.datesResolved.length === 0 ? (
            <span className="text-faint" data-testid="dates-resolved">
              none
            </span>
          ) : (
            <span className="flex flex-wrap gap-1" data-testid="dates-resolved">
              {retrieval.datesResolved.map((date) => (
                <Badge key={date} tone="accent">
                  {date}
                </Badge>
              ))}
            </span>
          )}
        </Field>
      </dl>
      {runs.length > 0 ? (
        <table className="mt-2 w-full text-left text-xs" data-testid="retrieval-runs">
          <caption className="sr-only">Searches run for this reply</caption>
          <thead className="text-faint">
            <tr>
              <th className="py-1 font-medium">Search</th>
              <th className="py-1 text-right font-medium">top&nbsp;k</th>
              <th className="py-1 text-right font-medium">found</th>
              <th className="py-1 pl-3 font-medium">note</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.kind} className="border-t border-line">
                <td className="py-1 capitalize">{run.kind}</td>
                <td className="py-1 text-right tabular-nums">{run.topK}</td>
                <td className="py-1 text-right tabular-nums">{run.candidates.length}</td>
                <td className="py-1 pl-3 text-muted">{run.skipped ?? (run.query !== record.retrieval.query ? run.query : '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}

// ---- recalled

const KIND_LABELS: Record<RecalledItem['kind'], string> = { fact: 'Facts', summary: 'Summary', episode: 'Episodes', history: 'History' };

function RecalledSection({ record, onReveal }: { record: TurnRecord; onReveal: () => void }) {
  const cited = new Set(record.cited);
  const kept = record.recalled.filter((item) => item.kept).length;
  const groups = (['fact', 'summary', 'episode', 'history'] as const)
    .map((kind) => ({ kind, items: record.recalled.filter((item) => item.kind === kind) }))
    .filter((group) => group.items.length > 0);
  const streaming = record.status === 'streaming';
  return (
    <Section
      testId="recalled"
      title="Recalled"
      meta={`${record.recalled.length} found · ${kept} kept · ${streaming ? 'citations after the reply' : `${record.cited.length} cited`}`}
    >
      {groups.length === 0 ? (
        <p className="text-sm text-muted">Nothing was recalled for this question: the reply had only the recent messages to go on.</p>
      ) : (
        <div className="space-y-4">
          {groups.map((group) => (
            <div key={group.kind}>
              <h4 className="mb-1.5 text-xs font-medium text-muted">
                {KIND_LABELS[group.kind]} <span className="text-faint">({group.items.length})</span>
              </h4>
              <ul className="space-y-2">
                {group.items.map((item) => (
                  <RecalledCard key={item.key} item={item} cited={cited.has(item.key)} record={record} onReveal={onReveal} />
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </Section>
  );
}

function RecalledCard({ item, cited, record, onReveal }: { item: RecalledItem; cited: boolean; record: TurnRecord; onReveal: () => void }) {
  const slot = typeof item.meta.slot === 'string' ? item.meta.slot : null;
  const version = item.kind === 'summary' ? (typeof item.meta.version === 'number' ? item.meta.version : record.summary?.version) : null;
  const redacted = item.redacted;
  return (
    <li
      data-testid="recalled-item"
      data-key={item.key}
      data-kind={item.kind}
      data-kept={item.kept}
      data-cited={cited}
      data-redacted={redacted ? 'true' : undefined}
      className={`rounded-lg border p-2.5 text-sm ${
        cited ? 'border-accent/50 bg-accent-soft/50 shadow-[inset_3px_0_0_var(--color-accent)]' : item.kept ? 'border-line bg-surface' : 'border-dashed border-line bg-subtle/50 text-muted'
      }`}
    >
      {redacted ? (
        <div data-testid="redacted-item" className="mb-2 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs text-muted">
          <Badge tone="danger" title="Deleted memory was removed from this item after the reply">
            Redacted
          </Badge>{' '}
          <span>
            by {describeActor(redacted.by)} on <time dateTime={redacted.at}>{formatDateTime(redacted.at)}</time>: {redacted.reason}
          </span>
        </div>
      ) : null}
      <div className="flex items-start gap-2">
        <span
          className={`mt-0.5 shrink-0 rounded px-1 font-mono text-[11px] leading-4 ${item.n !== null ? 'bg-fg text-surface' : 'bg-subtle text-faint'}`}
          title={item.n !== null ? `Listed as [${item.n}] in the system prompt` : 'Not listed in the system prompt'}
        >
          {item.n !== null ? `[${item.n}]` : '—'}
        </span>
        <p className="min-w-0 flex-1 leading-5 break-words whitespace-pre-wrap" data-testid="recalled-text">
          <RedactedText text={item.text} />
        </p>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        {cited ? (
          <Badge tone="accent" testId="cited-badge" title="The reply cited this item">
            Cited
          </Badge>
        ) : null}
        <Badge
          tone={item.kept ? 'good' : sentInWindow(item) ? 'neutral' : 'warn'}
          testId="kept-badge"
          title={sentInWindow(item) ? 'Not sent as memory: the recent window sends every message of it' : undefined}
        >
          {item.kept ? 'Kept' : sentInWindow(item) ? 'In window' : 'Dropped'}
        </Badge>
        <span className="text-xs text-muted" data-testid="recalled-reason">
          {item.reason ?? 'no budget decision'} · {formatTokens(item.tokens)} tok
        </span>
        {slot ? <Badge>{slot}</Badge> : null}
        {version ? <Badge>v{version}</Badge> : null}
      </div>
      <div className="mt-1.5 text-[11px] text-muted tabular-nums">
        score {formatScore(item.score)}
        {item.rank !== null ? ` · rank ${item.rank}` : ''} · vector {item.vectorRank !== null ? `#${item.vectorRank}` : '—'} · lexical{' '}
        {item.lexicalRank !== null ? `#${item.lexicalRank}` : '—'}
      </div>
      <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-[11px] text-muted">
        <span>from</span>
        <SourceLinks ids={item.sourceMessageIds} onReveal={onReveal} />
      </div>
    </li>
  );
}

// ---- messages sent

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : JSON.stringify(part))).join('');
  }
  return JSON.stringify(content, null, 2);
}

function MessagesSection({ record }: { record: TurnRecord }) {
  const [copied, setCopied] = useState(false);
  const chars = record.messages.reduce((sum, m) => sum + contentText(m.content).length, 0);
  return (
    <Section
      testId="messages"
      title="Messages sent"
      meta={`${record.messages.length} messages · ${chars.toLocaleString('en-US')} chars`}
      defaultOpen={false}
    >
      <p className="mb-2 text-xs text-muted">Exactly what the model received, system prompt first.</p>
      <ol className="space-y-2">
        {record.messages.map((message, index) => (
          <li key={index} data-testid="sent-message" data-role={message.role} className="rounded-lg border border-line">
            <div className="flex items-center justify-between border-b border-line bg-subtle px-2 py-1 text-[11px]">
              <span className="font-mono font-semibold">{message.role}</span>
              <span className="text-faint">#{index}</span>
            </div>
            <pre className="max-h-72 overflow-auto px-2 py-1.5 font-mono text-[12px] leading-5 break-words whitespace-pre-wrap">
              <RedactedText text={contentText(message.content)} />
            </pre>
          </li>
        ))}
      </ol>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(JSON.stringify(record.messages, null, 2)).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          });
        }}
        className="mt-2 rounded-md border border-line px-2 py-1 text-xs text-muted hover:bg-subtle hover:text-fg"
      >
        {copied ? 'Copied' : 'Copy as JSON'}
      </button>
    </Section>
  );
}

// ---- timing

function TimingSection({ record }: { record: TurnRecord }) {
  const total = record.trace.reduce((sum, step) => sum + step.ms, 0);
  const longest = Math.max(1, ...record.trace.map((step) => step.ms));
  const generating = record.status === 'streaming';
  return (
    <Section testId="timing" title="Timing & model" meta={`${formatMs(total)}${generating ? ' so far' : ''}`}>
      <table className="w-full text-xs" data-testid="timing-steps">
        <caption className="sr-only">Time spent in each step</caption>
        <tbody>
          {record.trace.map((step, index) => (
            <tr key={`${step.step}-${index}`} data-testid="timing-step" data-step={step.step}>
              <td className="w-[9.5rem] py-0.5 pr-2 font-mono text-[11px] text-muted">{step.step}</td>
              <td className="py-0.5">
                <div className="h-1.5 rounded-full bg-subtle">
                  <div className="h-1.5 rounded-full bg-accent" style={{ width: `${Math.max(1.5, (step.ms / longest) * 100)}%` }} />
                </div>
              </td>
              <td className="w-16 py-0.5 pl-2 text-right tabular-nums">{formatMs(step.ms)}</td>
            </tr>
          ))}
          {generating ? (
            <tr>
              <td className="py-0.5 pr-2 font-mono text-[11px] text-muted">generate</td>
              <td className="py-0.5 text-muted italic" colSpan={2}>
                streaming…
              </td>
            </tr>
          ) : null}
        </tbody>
        <tfoot>
          <tr className="border-t border-line font-medium">
            <td className="pt-1">Total</td>
            <td />
            <td className="pt-1 text-right tabular-nums" data-testid="timing-total">
              {formatMs(total)}
            </td>
          </tr>
        </tfoot>
      </table>

      <dl className="mt-3">
        <Field label="Model">
          <span className="flex flex-wrap items-center gap-1.5">
            <code className="font-mono text-[12.5px]" data-testid="model-id">
              {record.model.id}
            </code>
            {record.model.offline ? (
              <Badge tone="warn" testId="model-offline" title="No API key is configured: the built-in offline model answered">
                offline
              </Badge>
            ) : null}
          </span>
        </Field>
        <Field label="Usage" testId="usage">
          {record.usage ? (
            <span className="tabular-nums">
              {formatTokens(record.usage.inputTokens)} in · {formatTokens(record.usage.outputTokens)} out
            </span>
          ) : (
            <span className="text-faint">{generating ? 'after the reply' : 'not reported'}</span>
          )}
        </Field>
        <Field label="Status">
          <span data-testid="record-status">{record.status}</span>
        </Field>
        <Field label="Request">
          <code className="font-mono text-[11px] text-muted" title={record.requestId}>
            {shortId(record.requestId)}
          </code>
        </Field>
      </dl>

      {record.warnings.length > 0 ? (
        <div className="mt-3" data-testid="warnings">
          <Notice tone="warn">
            <p className="font-medium">Warnings</p>
            <ul className="mt-1 list-disc space-y-0.5 pl-4">
              {record.warnings.map((warning, index) => (
                <li key={index}>{warning}</li>
              ))}
            </ul>
          </Notice>
        </div>
      ) : null}
    </Section>
  );
}
