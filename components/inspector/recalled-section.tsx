'use client';

import { useQueries } from '@tanstack/react-query';
import { memo, useEffect, useRef, useState } from 'react';
import type { RecalledItem, TurnRecord } from '../api-types';
import { ApiError } from '../http';
import { type ChatMessage, turnRecordOf } from '../types';
import { Notice } from '../ui/badge';
import { Section } from '../ui/section';
import { turnKey, useEndpoints } from './endpoints';
import type { CitingReply } from './items/item-card';
import { RecalledCard } from './items/recalled-card';
import { useInspector, useInspectorStore } from './store';
import { TechnicalDetails } from './technical-details';

const KIND_LABELS: Record<RecalledItem['kind'], string> = {
  fact: 'Facts',
  summary: 'Summary',
  episode: 'Earlier exchanges',
};

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
  const groups = (['fact', 'summary', 'episode'] as const)
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
