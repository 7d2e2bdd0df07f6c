'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { TurnRecord } from '../api-types';
import { LoadError, Skeleton } from '../ui/loading';
import { RedactedText } from '../ui/redacted-text';
import { SearchField, useDebounced } from '../ui/search';
import { Section } from '../ui/section';
import { useEndpoints } from './endpoints';
import { WhyAnswerView } from './why-answer';
import type { MemoryPick } from './why-picks';

const KIND_LABELS: Record<MemoryPick['kind'], string> = { fact: 'Fact', episode: 'Exchange', summary: 'Summary' };

const WHY_HELP = (
  <p>
    Pick any memory, sent or not: the answer says whether it was sent with this reply and, if not, why. It may not have been close enough to
    the question, other memories may have matched better, there may have been no room left, memlens may have learned it later, or it was
    corrected. The numbers behind the answer are under “Technical details”.
  </p>
);

/** "Why not recalled?": pick an item of the user's memory and learn why it was, or was not, in this reply's context. */
export function WhySection({ record }: { record: TurnRecord }) {
  const endpoints = useEndpoints();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), 250);
  const [picked, setPicked] = useState<MemoryPick | null>(null);
  // Read only once asked for: opening a reply must not read the whole memory (staff reads are audited).
  const [listed, setListed] = useState(false);
  const sentKeys = new Set(record.recalled.filter((item) => item.kept).map((item) => item.key));
  const picks = useQuery({
    queryKey: [endpoints.cacheKey, 'memory-picks', q],
    queryFn: () => endpoints.memoryPicks(q),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    enabled: listed || q !== '',
  });
  const summaryPick: MemoryPick = {
    key: `summary:${record.conversationId}`,
    kind: 'summary',
    text: "This conversation's summary",
    note: null,
  };
  const choices = picks.data ? [...picks.data, ...(q === '' ? [summaryPick] : [])] : [];
  const answer = useQuery({
    queryKey: [endpoints.cacheKey, 'why', record.assistantMessageId, picked?.key],
    queryFn: () => endpoints.why(record.assistantMessageId, picked!.key),
    enabled: picked !== null,
    staleTime: 0,
  });

  return (
    <Section testId="why" title="Why not recalled?" meta="ask about any memory" help={WHY_HELP} defaultOpen={false}>
      <SearchField label="Find a memory" value={text} onChange={setText} placeholder="Find a fact or an exchange…" testId="why-search" />
      {picks.isError ? <LoadError error={picks.error} what="your memory" retry={() => void picks.refetch()} /> : null}
      {!listed && q === '' ? (
        <button
          type="button"
          data-testid="why-list"
          onClick={() => setListed(true)}
          className="mt-2 rounded-md border border-line px-2 py-0.5 text-xs font-medium text-muted hover:bg-subtle hover:text-fg"
        >
          List {endpoints.viewer.audience === 'owner' ? 'my' : "the user's"} memories
        </button>
      ) : null}
      {picks.isFetching && !picks.data ? <Skeleton lines={2} /> : null}
      <ul className="mt-2 max-h-56 space-y-1 overflow-y-auto" data-testid="why-picks" aria-label="Memories to ask about">
        {picks.isSuccess && choices.length === 0 && q !== '' ? (
          <li className="text-xs text-muted">Nothing in your memory contains “{q}”.</li>
        ) : null}
        {choices.map((choice) => (
          <li key={choice.key}>
            <button
              type="button"
              data-testid="why-pick"
              data-key={choice.key}
              aria-pressed={picked?.key === choice.key}
              onClick={() => setPicked(choice)}
              className={`flex w-full items-baseline gap-2 rounded-md px-2 py-1 text-left text-xs hover:bg-subtle ${
                picked?.key === choice.key ? 'bg-accent-soft' : ''
              }`}
            >
              <span className="w-16 shrink-0 text-faint">{KIND_LABELS[choice.kind]}</span>
              <span className="min-w-0 flex-1 truncate">
                <RedactedText text={choice.text} />
              </span>
              {sentKeys.has(choice.key) ? <span className="shrink-0 text-muted">sent</span> : null}
              {choice.note ? <span className="max-w-[40%] min-w-0 truncate text-faint">{choice.note}</span> : null}
            </button>
          </li>
        ))}
      </ul>
      {picked ? (
        <div className="mt-3 border-t border-line pt-3" aria-live="polite">
          <p className="mb-1 text-xs text-muted">
            About <span className="text-fg">“{picked.text}”</span>
          </p>
          {answer.isPending ? <Skeleton lines={2} /> : null}
          {answer.isError ? <LoadError error={answer.error} what="the answer" retry={() => void answer.refetch()} /> : null}
          {answer.data ? <WhyAnswerView answer={answer.data} viewer={endpoints.viewer} /> : null}
        </div>
      ) : null}
    </Section>
  );
}
