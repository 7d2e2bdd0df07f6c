'use client';

import { useQueries } from '@tanstack/react-query';
import { memo, useEffect, useRef, useState } from 'react';
import { saidElsewhere, sentInWindow } from '@/lib/shared/budget-reasons';
import type { RecalledItem, TurnRecord } from '../api-types';
import { describeActor } from '../describe-actor';
import { ApiError } from '../http';
import { type ChatMessage, turnRecordOf } from '../types';
import { Badge, Notice } from '../ui/badge';
import { formatDateTime, formatRelative, formatScore, formatTokens, ordinal } from '../ui/format';
import { RedactedText } from '../ui/redacted-text';
import { Section } from '../ui/section';
import { turnKey, useEndpoints, useViewer } from './endpoints';
import { SourceLinks } from './source-links';
import { revealCitation, useInspector, useInspectorStore } from './store';
import { TechnicalDetails } from './technical-details';

const KIND_LABELS: Record<RecalledItem['kind'], string> = {
  fact: 'Facts',
  summary: 'Summary',
  episode: 'Earlier exchanges',
  history: 'Recent messages',
};

/** How the searches found an item, in words. */
function foundBy(item: RecalledItem): string | null {
  if (typeof item.meta.neighbourOf === 'string')
    return item.meta.side === -1 ? 'said just before an exchange found' : 'said just after an exchange found';
  if (item.vectorRank !== null && item.lexicalRank !== null) return 'found by meaning and by the words';
  if (item.vectorRank !== null) return 'found by meaning';
  if (item.lexicalRank !== null) return 'found by the words';
  return null;
}

const RECALLED_HELP = (
  <>
    <p>
      memlens looks through your memory two ways at once: <b>by meaning</b> (what the question is about, even in other words) and{' '}
      <b>by the words</b> (the question&apos;s own words, or pairs of Chinese characters). What both ways find comes first; each kind of
      memory is listed most relevant first. The summary is not searched: it comes with the conversation.
    </p>
    <p>
      <b>Sent</b>: given to memlens with the reply, numbered <b>[n]</b>. <b>No room</b>: found, but there was no room left for it.{' '}
      <b>In the chat</b>: not sent as a memory because the recent messages already include all of it. <b>Said already</b>: not sent because
      another memory that is sent says the same; the summary likewise leaves out its lines another memory says (shown pale). <b>Cited</b>:
      the reply refers to it as [n]; a click on [n] in a reply brings you here.
    </p>
    <TechnicalDetails testId="recalled-technical-help">
      <p>
        By meaning: cosine similarity of embeddings (pgvector). By the words: the query&apos;s terms the text holds, rarer and longer ones
        counting more. The two rankings are fused by reciprocal rank fusion (RRF): the sum of 1&nbsp;/&nbsp;(60&nbsp;+&nbsp;rank) over the
        rankings that found the item. First in both gives 2/61 ≈ 0.033, first in one only 1/61 ≈ 0.016; it only orders the candidates. “Show
        the numbers” lists each item&apos;s fused score, its place after fusion and its place in each ranking (— when that ranking did not
        find it).
      </p>
    </TechnicalDetails>
  </>
);

/** What memory was recalled for the reply, with scores, the budget's decision, citations and sources. */
export const RecalledSection = memo(function RecalledSection({ record, onReveal }: { record: TurnRecord; onReveal: () => void }) {
  const cited = new Set(record.cited);
  const kept = record.recalled.filter((item) => item.kept).length;
  const groups = (['fact', 'summary', 'episode', 'history'] as const)
    .map((kind) => ({ kind, items: record.recalled.filter((item) => item.kind === kind) }))
    .filter((group) => group.items.length > 0);
  const streaming = record.status === 'streaming';

  // A click on [n] in a reply (or on a reply that cited an item) asks for one item of this record.
  const focus = useInspector((state) => state.focus);
  const target = focus && focus.messageId === record.assistantMessageId ? focus : null;
  const focused = target
    ? record.recalled.find((item) => (target.key !== undefined ? item.key === target.key : item.n === target.n))
    : undefined;
  const scrolled = useRef<number | null>(null);
  useEffect(() => {
    if (!target || !focused || scrolled.current === target.seq) return;
    scrolled.current = target.seq;
    const frame = window.requestAnimationFrame(() => {
      const element = document.querySelector<HTMLElement>(
        `[data-testid="inspector"] [data-testid="recalled-item"][data-key="${CSS.escape(focused.key)}"]`,
      );
      const scroller = element?.closest<HTMLElement>('[data-testid="turn-view"]');
      if (!element || !scroller) return;
      // Only the inspector's own list scrolls (scrollIntoView would move the page and the chat too).
      const box = element.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      scroller.scrollBy({ top: box.top - view.top - Math.max(16, (view.height - box.height) / 2), behavior: reduce ? 'auto' : 'smooth' });
    });
    return () => window.cancelAnimationFrame(frame);
  }, [target, focused]);

  // Which other replies of the conversation cited each item: read from their records on request.
  const [lookup, setLookup] = useState(false);
  const citing = useCitingReplies(lookup, record.assistantMessageId);
  const [showNumbers, setShowNumbers] = useState(false);

  return (
    <Section
      testId="recalled"
      title="Recalled"
      meta={`${record.recalled.length} found · ${kept} kept · ${streaming ? 'citations after the reply' : `${record.cited.length} cited`}`}
      help={RECALLED_HELP}
      openSignal={target?.seq}
    >
      {target && !focused ? (
        <div className="mb-3">
          <Notice testId="cite-missing" tone="warn">
            {target.n !== undefined
              ? `[${target.n}] matches no item of this reply's context: the model wrote a number it was not given.`
              : 'That item is not in this reply’s context.'}
          </Notice>
        </div>
      ) : null}
      {groups.length === 0 ? (
        <p className="text-sm text-muted" data-testid="recalled-empty">
          Nothing was recalled for this question: the reply had only the recent messages to go on.
        </p>
      ) : (
        <>
          <div className="mb-3 flex flex-wrap items-center gap-2 text-xs text-muted">
            {lookup ? (
              <span data-testid="citing-status" data-loading={citing.loading ? 'true' : undefined}>
                {citing.loading
                  ? `Reading the records of ${citing.total} other repl${citing.total === 1 ? 'y' : 'ies'}…`
                  : citing.total === 0
                    ? 'No other reply in this conversation.'
                    : `Citations of the ${citing.total} other repl${citing.total === 1 ? 'y' : 'ies'} in this conversation shown under each item${
                        citing.unrecorded > 0 ? ` (${citing.unrecorded} without a record)` : ''
                      }${citing.failed > 0 ? ` (${citing.failed} could not be read)` : ''}.`}
              </span>
            ) : (
              <button
                type="button"
                data-testid="find-citing-replies"
                onClick={() => setLookup(true)}
                disabled={streaming}
                className="rounded-md border border-line px-2 py-0.5 font-medium hover:bg-subtle hover:text-fg disabled:opacity-50"
                title="Read the records of this conversation's other replies and show which of them cited each item"
              >
                Which other replies cited these?
              </button>
            )}
            <button
              type="button"
              data-testid="show-scores"
              aria-pressed={showNumbers}
              onClick={() => setShowNumbers((value) => !value)}
              className="ml-auto rounded-md border border-line px-2 py-0.5 font-medium hover:bg-subtle hover:text-fg"
              title="Each item's scores and places in the searches"
            >
              {showNumbers ? 'Hide the numbers' : 'Show the numbers'}
            </button>
          </div>
          <div className="space-y-4">
            {groups.map((group) => (
              <div key={group.kind}>
                <h4 className="mb-1.5 text-xs font-medium text-muted">
                  {KIND_LABELS[group.kind]} <span className="text-faint">({group.items.length})</span>
                </h4>
                <ul className="space-y-2">
                  {group.items.map((item) => (
                    <RecalledCard
                      key={item.key}
                      item={item}
                      cited={cited.has(item.key)}
                      focused={focused?.key === item.key}
                      record={record}
                      onReveal={onReveal}
                      citedElsewhere={lookup && !citing.loading ? (citing.byKey.get(item.key) ?? []) : null}
                      showNumbers={showNumbers}
                    />
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </>
      )}
    </Section>
  );
});

type CitingReply = { messageId: string; position: number; n: number | null };

/**
 * The other replies of the conversation and what each cited, from their turn records (streamed
 * with them, or read from the API once asked for; cached with the inspector's own reads).
 */
function useCitingReplies(enabled: boolean, currentId: string) {
  const endpoints = useEndpoints();
  // The other finished replies, as a string: the section does not re-render with every streamed word.
  const signature = useInspector((state) =>
    state.messages
      .filter((m) => m.role === 'assistant')
      .map((m, index) => `${m.id}:${index + 1}:${m.metadata?.status ?? ''}:${turnRecordOf(m)?.status ?? ''}`)
      .join(' '),
  );
  const store = useInspectorStore();
  const messages = store?.getState().messages ?? [];
  const replies = signature
    .split(' ')
    .filter(Boolean)
    .map((entry) => {
      const [id, position, status] = entry.split(':');
      return { id, position: Number(position), status, message: messages.find((m) => m.id === id) };
    })
    .filter((reply) => reply.id !== currentId && reply.status !== 'streaming');
  const liveRecord = (message: ChatMessage | undefined) => {
    const live = message ? turnRecordOf(message) : undefined;
    return live && live.status !== 'streaming' ? live : undefined;
  };
  const results = useQueries({
    queries: replies.map(({ id, message }) => ({
      queryKey: turnKey(endpoints, id),
      queryFn: () => endpoints.turnContext(id),
      enabled: enabled && !liveRecord(message),
      retry: (count: number, error: Error) => !(error instanceof ApiError && error.status === 404) && count < 1,
      staleTime: 60_000,
    })),
  });
  const byKey = new Map<string, CitingReply[]>();
  let loading = false;
  let failed = 0;
  let unrecorded = 0;
  replies.forEach(({ id, message, position }, index) => {
    const result = results[index];
    const record = liveRecord(message) ?? result?.data?.context;
    if (!record) {
      if (result?.isPending && enabled) loading = true;
      else if (result?.error instanceof ApiError && result.error.status === 404) unrecorded += 1;
      else if (result?.isError) failed += 1;
      return;
    }
    for (const key of record.cited) {
      const n = record.recalled.find((item) => item.key === key)?.n ?? null;
      byKey.set(key, [...(byKey.get(key) ?? []), { messageId: id, position, n }]);
    }
  });
  return { byKey, loading, failed, unrecorded, total: replies.length };
}

function RecalledCard({
  item,
  cited,
  focused,
  record,
  onReveal,
  citedElsewhere,
  showNumbers,
}: {
  item: RecalledItem;
  cited: boolean;
  focused: boolean;
  record: TurnRecord;
  onReveal: () => void;
  /** Other replies that cited this item, once looked up. */
  citedElsewhere: CitingReply[] | null;
  /** The fused score and the places in each search, instead of words. */
  showNumbers: boolean;
}) {
  const store = useInspectorStore();
  const viewer = useViewer();
  const slot = typeof item.meta.slot === 'string' ? item.meta.slot : null;
  const version = item.kind === 'summary' ? (typeof item.meta.version === 'number' ? item.meta.version : record.summary?.version) : null;
  const conversationHint = typeof item.meta.conversationId === 'string' ? item.meta.conversationId : null;
  const redacted = item.redacted;
  const inWindow = sentInWindow(item);
  const repeat = saidElsewhere(item);
  // The summary as sent may leave out lines another memory sent says: those are the ones it lacks.
  const sentSummary = item.kind === 'summary' && item.kept && record.summary?.text !== item.text ? record.summary?.text : undefined;
  return (
    <li
      data-testid="recalled-item"
      data-key={item.key}
      data-kind={item.kind}
      data-kept={item.kept}
      data-cited={cited}
      data-n={item.n ?? undefined}
      data-focused={focused ? 'true' : undefined}
      data-redacted={redacted ? 'true' : undefined}
      className={`scroll-my-16 rounded-lg border p-2.5 text-sm transition-shadow ${
        cited
          ? 'border-accent/50 bg-accent-soft/50 shadow-[inset_3px_0_0_var(--color-accent)]'
          : item.kept
            ? 'border-line bg-surface'
            : 'border-dashed border-line bg-subtle/50 text-muted'
      } ${focused ? 'ring-2 ring-accent ring-offset-2 ring-offset-surface' : ''}`}
    >
      {redacted ? (
        <div data-testid="redacted-item" className="mb-2 flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs text-muted">
          <Badge tone="danger" title="Deleted memory was removed from this item after the reply">
            Redacted
          </Badge>{' '}
          <span>
            by {describeActor(redacted.by, viewer)}{' '}
            <time dateTime={redacted.at} title={formatDateTime(redacted.at)}>
              {formatRelative(redacted.at)}
            </time>
            : {redacted.reason}
          </span>
        </div>
      ) : null}
      <div className="flex items-start gap-2">
        <span
          className={`mt-0.5 shrink-0 rounded px-1 font-mono text-[11px] leading-4 ${item.n !== null ? 'bg-fg text-surface' : 'bg-subtle text-faint'}`}
          title={
            item.n !== null
              ? `Listed as [${item.n}] in the system prompt: the reply cites it by this number`
              : 'Not listed in the system prompt'
          }
        >
          {item.n !== null ? `[${item.n}]` : '—'}
        </span>
        <p className="min-w-0 flex-1 leading-5 break-words whitespace-pre-wrap" data-testid="recalled-text">
          {sentSummary === undefined ? <RedactedText text={item.text} /> : <SummaryLines text={item.text} sent={sentSummary} />}
        </p>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        {cited ? (
          <Badge tone="accent" testId="cited-badge" title="The reply cited this item as [n]">
            Cited
          </Badge>
        ) : null}
        <Badge
          tone={item.kept ? 'good' : inWindow || repeat ? 'neutral' : 'warn'}
          testId="kept-badge"
          title={
            item.kept
              ? 'Given to memlens with the reply, listed as [n]'
              : inWindow
                ? 'Not sent as a memory: the recent messages already include all of it'
                : repeat
                  ? 'Not sent: another memory that is sent says the same (see the reason)'
                  : 'Found but not sent: there was no room left for it (see the reason)'
          }
        >
          {item.kept ? 'Sent' : inWindow ? 'In the chat' : repeat ? 'Said already' : 'No room'}
        </Badge>
        <span className="text-xs text-muted" data-testid="recalled-reason">
          {item.reason ?? 'no budget decision'} ·{' '}
          <span title="Tokens this item takes in the prompt, its [n] line included">{formatTokens(item.tokens)} tokens</span>
        </span>
        {slot ? <Badge title="The kind of fact: a new fact of the same kind replaces the old one">{slot}</Badge> : null}
        {version ? <Badge title="The summary version that was sent">v{version}</Badge> : null}
      </div>
      <div className="mt-1.5 text-[11px] text-muted tabular-nums" data-testid="recalled-scores">
        {showNumbers ? (
          <>
            <span title="Reciprocal rank fusion of the two rankings: the sum of 1 / (60 + rank) over the rankings that found it. Higher is better.">
              score {formatScore(item.score)}
            </span>
            {item.rank !== null ? (
              <span title="Place after fusing both rankings, among what this search found"> · rank {item.rank}</span>
            ) : (
              ''
            )}
            <span title="Place by meaning (embedding cosine similarity); — when that ranking did not find it">
              {' '}
              · vector {item.vectorRank !== null ? `#${item.vectorRank}` : '—'}
            </span>
            <span title="Place by the query's words the text contains; — when that ranking did not find it">
              {' '}
              · lexical {item.lexicalRank !== null ? `#${item.lexicalRank}` : '—'}
            </span>
          </>
        ) : item.kind === 'summary' ? (
          'comes with the conversation'
        ) : item.kind === 'history' ? (
          'a recent message of this chat'
        ) : (
          [foundBy(item), item.rank !== null ? `${ordinal(item.rank)} most relevant` : null].filter(Boolean).join(' · ')
        )}
      </div>
      <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-[11px] text-muted">
        <span>from</span>
        <SourceLinks ids={item.sourceMessageIds} onReveal={onReveal} conversationHint={conversationHint} max={2} />
      </div>
      {cited || (citedElsewhere && citedElsewhere.length > 0) ? (
        <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-[11px] text-muted" data-testid="cited-in">
          <span>cited in</span>
          {cited ? (
            <button
              type="button"
              data-testid="cited-by-reply"
              data-message-id={record.assistantMessageId}
              onClick={() => {
                if (revealCitation(record.assistantMessageId, item.n)) onReveal();
              }}
              className="rounded bg-accent-soft px-1 text-accent hover:underline"
              title={`Show where this reply cites it as [${item.n}]`}
            >
              this reply{item.n !== null ? ` [${item.n}]` : ''}
            </button>
          ) : null}
          {citedElsewhere?.map((reply) => (
            <button
              key={reply.messageId}
              type="button"
              data-testid="cited-by-reply"
              data-message-id={reply.messageId}
              onClick={() => {
                store?.focusItem(reply.messageId, { key: item.key });
                revealCitation(reply.messageId, reply.n);
              }}
              className="rounded bg-subtle px-1 text-accent hover:underline"
              title={`Open reply ${reply.position} in the inspector, at this item`}
            >
              reply {reply.position}
              {reply.n !== null ? ` [${reply.n}]` : ''}
            </button>
          ))}
        </div>
      ) : citedElsewhere ? (
        <p className="mt-1.5 text-[11px] text-faint" data-testid="cited-in-none">
          no other reply cited it
        </p>
      ) : null}
    </li>
  );
}

/** The summary line by line, the lines it was sent without set off as not sent. */
function SummaryLines({ text, sent }: { text: string; sent: string }) {
  const kept = new Set(sent.split('\n'));
  return text.split('\n').map((line, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text in reading order, recomputed whole from it
    <span key={index} className="block">
      {kept.has(line) ? (
        <RedactedText text={line} />
      ) : (
        <span
          className="text-faint"
          data-testid="summary-line-not-sent"
          title="Not sent with this reply: another memory that is sent says it"
        >
          <RedactedText text={line} /> <span className="text-[11px] italic">(not sent: said in another memory)</span>
        </span>
      )}
    </span>
  ));
}
