'use client';

import { memo, useMemo } from 'react';
import type { TurnRecord } from '../api-types';
import { Badge, Notice } from '../ui/badge';
import { Field } from '../ui/field';
import { formatMs, formatTokens, shortId } from '../ui/format';
import { Explained } from '../ui/help';
import { Section } from '../ui/section';
import { TimelineChart, type TimelineStep } from './charts';

const TIMING_HELP = (
  <>
    <p>
      The steps that assembled the context, one after another, then <b>generate</b>: from the call to the model until its last word.{' '}
      <b>First token</b> is the time from the start of generate to the first word of the reply (amber in the timeline): what a person waits
      before anything appears.
    </p>
    <p>
      <b>Usage</b> is what the model&apos;s provider reported; <b>our count</b> is the budget&apos;s. Why they can differ: see the “?” next
      to Tokens.
    </p>
  </>
);

/** Each step's time as a timeline with the first token, the model, and its usage beside our count. */
export const TimingSection = memo(function TimingSection({ record }: { record: TurnRecord }) {
  const total = record.trace.reduce((sum, step) => sum + step.ms, 0);
  const generating = record.status === 'streaming';
  const steps = useMemo(() => timeline(record.trace, record.firstTokenMs), [record.trace, record.firstTokenMs]);
  const generate = steps.find((step) => step.step === 'generate');
  const firstToken = typeof record.firstTokenMs === 'number' ? record.firstTokenMs : null;
  return (
    <Section
      testId="timing"
      title="Timing & model"
      meta={`${formatMs(total)}${generating ? ' so far' : ''}${firstToken !== null ? ` · first token ${formatMs(firstToken)}` : ''}`}
      help={TIMING_HELP}
    >
      {steps.length > 0 ? <TimelineChart steps={steps} /> : null}
      <table className="mt-1 w-full text-xs" data-testid="timing-steps">
        <caption className="sr-only">Time spent in each step</caption>
        <thead className="text-faint">
          <tr>
            <th className="py-1 text-left font-medium">Step</th>
            <th className="py-1 text-right font-medium" title="When the step started, from the start of the turn">
              from
            </th>
            <th className="py-1 text-right font-medium">took</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((step, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the steps of a stored record, a fixed list that never reorders (a step name may repeat)
            <tr key={`${step.step}-${index}`} data-testid="timing-step" data-step={step.step} className="border-t border-line">
              <td className="py-0.5 pr-2 font-mono text-[11px] text-muted">{step.step}</td>
              <td className="py-0.5 text-right text-faint tabular-nums">{formatMs(step.start)}</td>
              <td className="w-20 py-0.5 pl-2 text-right tabular-nums">{formatMs(step.ms)}</td>
            </tr>
          ))}
          {generate || generating ? (
            <tr
              data-testid="timing-first-token"
              data-ms={firstToken ?? undefined}
              className="border-t border-line"
              title="From the start of generate to the first word of the reply"
            >
              <td className="py-0.5 pr-2 font-mono text-[11px] text-muted">
                <span className="mr-1 inline-block size-2 rounded-sm bg-amber-400 align-middle dark:bg-amber-300" aria-hidden="true" />
                first token
              </td>
              <td className="py-0.5 text-right text-faint tabular-nums">{generate ? formatMs(generate.start) : ''}</td>
              <td className="py-0.5 pl-2 text-right tabular-nums">
                {firstToken !== null ? (
                  formatMs(firstToken)
                ) : generating ? (
                  <span className="text-muted italic">after the reply</span>
                ) : (
                  <span
                    className="text-faint"
                    title={record.firstTokenMs === undefined ? 'Recorded for replies written after this was added' : 'No text came'}
                  >
                    —
                  </span>
                )}
              </td>
            </tr>
          ) : null}
          {generating ? (
            <tr className="border-t border-line">
              <td className="py-0.5 pr-2 font-mono text-[11px] text-muted">generate</td>
              <td className="py-0.5 text-right text-muted italic" colSpan={2}>
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
        <Field label="Usage" testId="usage" help="The input and output tokens the model's provider reported for this call (what it bills).">
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

      <UsageComparison record={record} />

      {record.warnings.length > 0 ? (
        <div className="mt-3" data-testid="warnings">
          <Notice tone="warn">
            <p className="font-medium">Warnings</p>
            <ul className="mt-1 list-disc space-y-0.5 pl-4">
              {record.warnings.map((warning, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the items of a stored record, a fixed list that never reorders (items may repeat, so their content is no key)
                <li key={index}>{warning}</li>
              ))}
            </ul>
          </Notice>
        </div>
      ) : null}
    </Section>
  );
});

/** Each step from where it started (the steps run one after another). */
function timeline(trace: TurnRecord['trace'], firstTokenMs: number | null | undefined): TimelineStep[] {
  let start = 0;
  return trace.map((step) => {
    const at = start;
    start += step.ms;
    return { step: step.step, start: at, ms: step.ms, firstTokenMs: step.step === 'generate' ? firstTokenMs : null };
  });
}

/** The provider's reported input tokens beside the budget's count, with the difference explained. */
function UsageComparison({ record }: { record: TurnRecord }) {
  const ours = record.budget?.total ?? null;
  const encoding = record.budget?.limits.encoding ?? null;
  const provider = record.usage?.inputTokens ?? null;
  const output = record.usage?.outputTokens ?? null;
  const difference = ours !== null && provider !== null ? provider - ours : null;
  const generating = record.status === 'streaming';
  const sign = (n: number) => (n > 0 ? `+${formatTokens(n)}` : n < 0 ? `−${formatTokens(-n)}` : '0');
  const percentOf = (n: number, of: number) => {
    const value = (n / of) * 100;
    return `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(1)}%`;
  };
  return (
    <div className="mt-3 border-t border-line pt-2">
      <div className="mb-1 text-xs font-medium text-muted">
        <Explained label="Why our count and the provider's differ" testId="usage-why" help={<UsageHelp offline={record.model.offline} />}>
          <span>Tokens: our count and the provider&apos;s</span>
        </Explained>
      </div>
      <table
        className="w-full text-xs"
        data-testid="usage-compare"
        data-ours={ours ?? undefined}
        data-provider={provider ?? undefined}
        data-difference={difference ?? undefined}
      >
        <caption className="sr-only">Input and output tokens: our count and the provider&apos;s</caption>
        <thead className="text-faint">
          <tr>
            <th className="py-1 text-left font-medium" />
            <th className="py-1 text-right font-medium">input</th>
            <th className="py-1 text-right font-medium">output</th>
          </tr>
        </thead>
        <tbody className="tabular-nums">
          <tr className="border-t border-line">
            <td className="py-1 pr-2">Our count{encoding ? <span className="text-faint"> ({encoding})</span> : null}</td>
            <td className="py-1 text-right" data-testid="usage-ours">
              {formatTokens(ours)}
            </td>
            <td className="py-1 text-right text-faint" title="The reply's tokens are not counted by memlens: see the provider's">
              —
            </td>
          </tr>
          <tr className="border-t border-line">
            <td className="py-1 pr-2">Provider reported</td>
            <td className="py-1 text-right" data-testid="usage-provider">
              {provider !== null ? (
                formatTokens(provider)
              ) : (
                <span className="text-faint">{generating ? 'after the reply' : 'not reported'}</span>
              )}
            </td>
            <td className="py-1 text-right">{output !== null ? formatTokens(output) : <span className="text-faint">—</span>}</td>
          </tr>
          {difference !== null && ours ? (
            <tr className="border-t border-line font-medium">
              <td className="py-1 pr-2">Difference</td>
              <td className="py-1 text-right" data-testid="usage-difference">
                {sign(difference)} <span className="font-normal text-faint">({percentOf(difference, ours)})</span>
              </td>
              <td />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

function UsageHelp({ offline }: { offline: boolean }) {
  return (
    <>
      <p>
        <b>Our count</b> is the budget&apos;s: gpt-tokenizer with the configured encoding, plus the chat framing OpenAI&apos;s chat models
        use (4 tokens per message, 3 to prime the reply). It is what memlens fits into the budget before the call.
      </p>
      <p>
        <b>The provider&apos;s</b> is what the model&apos;s server counted and bills. It differs when its framing differs from ours, when it
        adds tokens of its own (a system preamble, formatting of the instructions, tool definitions), or when the model uses another
        tokenizer (most non-OpenAI models). Output tokens are only the provider&apos;s.
      </p>
      {offline ? (
        <p>
          <b>Offline model:</b> it reports the tokens of the messages&apos; text joined by newlines, without chat framing, so it reports
          fewer than our count: about 4 per message and 3 for the priming.
        </p>
      ) : null}
    </>
  );
}
