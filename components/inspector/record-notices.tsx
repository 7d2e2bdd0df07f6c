'use client';

import { useQuery } from '@tanstack/react-query';
import type { PriorAttempt, TurnRecord } from '../api-types';
import { describeActor, reasonInWords } from '../describe-actor';
import { RetryIcon } from '../icons';
import { Badge, Notice } from '../ui/badge';
import { formatDateTime, formatRelative, formatTokens, plural } from '../ui/format';
import { messageStatusBadge } from '../ui/message-status';
import { RedactedText } from '../ui/redacted-text';
import { Disclosure } from '../ui/section';
import { turnKey, useEndpoints, useViewer } from './endpoints';

// What happened to a turn record after it was stored: redactions (a memory deletion removed text
// from it) and earlier attempts (a Retry rewrote the reply in place and kept their records).

/** At the top of a record that a memory deletion changed: who, when, why, and what stays as it was. */
export function RecordRedactedNotice({ record }: { record: TurnRecord }) {
  const viewer = useViewer();
  const redactions = record.redactions ?? [];
  if (redactions.length === 0) return null;
  return (
    <div className="border-b border-line px-4 py-3">
      <Notice tone="warn" testId="record-redacted">
        <p className="font-medium">Deleted memory was redacted from this record</p>
        <ul className="mt-1 space-y-0.5 text-xs leading-5">
          {redactions.map((redaction, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the items of a stored record, a fixed list that never reorders (items may repeat, so their content is no key)
            <li key={index} data-testid="record-redaction">
              By {describeActor(redaction.by, viewer)}{' '}
              <time dateTime={redaction.at} title={formatDateTime(redaction.at)}>
                {formatRelative(redaction.at)}
              </time>
              : {reasonInWords(redaction.reason)}
              {redaction.items > 0 ? ` (${plural(redaction.items, 'recalled item')})` : ''}.
            </li>
          ))}
        </ul>
        <p className="mt-1 text-xs leading-5">
          The removed text reads <span className="font-mono">[redacted]</span>. Everything else (items, tokens, budget decisions, citations)
          is as it was when the reply was written.
        </p>
      </Notice>
    </div>
  );
}

/**
 * "Attempt 2 · 1 earlier attempt": a reply answered again with Retry keeps its id; the records of
 * the earlier attempts come with the stored record (they are read from the API when the record
 * shown was streamed).
 */
export function AttemptsBar({ record }: { record: TurnRecord }) {
  const attempt = record.attempt ?? 1;
  const messageId = record.assistantMessageId;
  const endpoints = useEndpoints();
  const query = useQuery({
    queryKey: turnKey(endpoints, messageId),
    queryFn: () => endpoints.turnContext(messageId),
    enabled: attempt > 1 && record.status !== 'streaming',
    staleTime: 0,
    retry: 1,
  });
  if (attempt <= 1) return null;
  // A cached answer from before this attempt lists the wrong earlier attempts: wait for the fresh one.
  const current = query.data && (query.data.attempt ?? query.data.context.attempt) === attempt ? query.data : undefined;
  const prior = current?.priorAttempts ?? [];
  return (
    <div data-testid="prior-attempts" data-attempt={attempt} className="border-b border-line px-4 py-2 text-xs">
      {current && prior.length > 0 ? (
        <Disclosure
          testId="prior-attempts-list"
          label={
            <span className="inline-flex items-center gap-1.5">
              <RetryIcon width={12} height={12} />
              Attempt {attempt} · {plural(prior.length, 'earlier attempt')}
            </span>
          }
        >
          <ol className="mt-1 space-y-2">
            {prior.map((entry) => (
              <PriorAttemptItem key={`${entry.attempt}-${entry.requestId}`} entry={entry} />
            ))}
          </ol>
        </Disclosure>
      ) : (
        <p className="inline-flex items-center gap-1.5 py-1 font-medium text-muted">
          <RetryIcon width={12} height={12} />
          Attempt {attempt}
          {record.status === 'streaming'
            ? ' · earlier attempts are listed after the reply'
            : query.isError
              ? ` · could not load the earlier attempts: ${query.error.message}`
              : current
                ? ' · the earlier attempts left no record'
                : ' · loading the earlier attempts…'}
        </p>
      )}
    </div>
  );
}

function PriorAttemptItem({ entry }: { entry: PriorAttempt }) {
  const { record } = entry;
  const status = messageStatusBadge(record.status);
  const kept = record.recalled.filter((item) => item.kept).length;
  const total = record.budget?.total;
  return (
    <li
      data-testid="prior-attempt"
      data-attempt={entry.attempt}
      data-status={record.status}
      className="rounded-lg border border-line bg-subtle/50 p-2"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <span className="font-medium text-fg">Attempt {entry.attempt}</span>
        <Badge tone={status.tone}>{status.label}</Badge>
        <span className="ml-auto text-faint">
          <time dateTime={entry.createdAt} title={formatDateTime(entry.createdAt)}>
            {formatRelative(entry.createdAt)}
          </time>
        </span>
      </div>
      <p className="mt-1 text-muted">
        Answering:{' '}
        <span className="text-fg">
          “<RedactedText text={record.question.text} />”
        </span>
      </p>
      <p className="mt-0.5 text-muted tabular-nums" title={`request ${entry.requestId}`}>
        {plural(record.recalled.length, 'item')} recalled, {kept} kept
        {total !== undefined ? ` · ${formatTokens(total)} tokens sent` : ''}
      </p>
      {record.warnings.length > 0 ? (
        <ul className="mt-1 list-disc pl-4 text-warn">
          {record.warnings.map((warning, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the items of a stored record, a fixed list that never reorders (items may repeat, so their content is no key)
            <li key={index}>{warning}</li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
