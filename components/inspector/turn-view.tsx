'use client';

import type { TurnRecord } from '../api-types';
import { Badge } from '../ui/badge';
import { Field } from '../ui/field';
import { Explained } from '../ui/help';
import { RedactedText } from '../ui/redacted-text';
import { Section } from '../ui/section';
import { BudgetSection } from './budget-section';
import { MessagesSection } from './messages-section';
import { RecalledSection } from './recalled-section';
import { AttemptsBar, RecordRedactedNotice } from './record-notices';
import { ReplaySection } from './replay-section';
import { TechnicalDetails } from './technical-details';
import { TimingSection } from './timing-section';
import { WhySection } from './why-section';

/** Everything about one reply's context, section by section. */
export function TurnView({ record, onReveal }: { record: TurnRecord; onReveal: () => void }) {
  return (
    <div>
      <AttemptsBar record={record} />
      <RecordRedactedNotice record={record} />
      <RetrievalSection record={record} />
      <RecalledSection record={record} onReveal={onReveal} />
      <WhySection record={record} />
      <BudgetSection record={record} />
      <MessagesSection record={record} />
      <TimingSection record={record} />
      <ReplaySection key={record.assistantMessageId} record={record} />
    </div>
  );
}

// ---- retrieval

const RETRIEVAL_HELP = (
  <>
    <p>
      <b>Search query</b>: what memory was searched with. A question that leans on earlier turns (“it”, “that one”, a relative date) is{' '}
      <b>rewritten</b> into a standalone query first; the stored question never changes. <b>Cache hit</b>: the same rewrite was computed
      before for the same recent messages and question.
    </p>
    <p>
      Facts and earlier exchanges are each searched by meaning and by words at once; the <b>Recalled</b> section below explains their
      scores.
    </p>
  </>
);

const TOP_K_HELP = (
  <>
    <p>
      <b>Asked for</b>: how many memories each search looked for, most relevant first, before the budget decided what is sent. <b>Found</b>:
      how many it returned. An earlier exchange found only by meaning must be close enough to count; facts are never filtered. The summary
      is not searched: it comes with the conversation.
    </p>
    <TechnicalDetails>
      <p>
        “Asked for” is the search&apos;s top k: FACTS_TOP_K and EPISODES_TOP_K in the configuration, 0 meaning automatic (enough to fill the
        block&apos;s cap, between 5 and 50).
      </p>
    </TechnicalDetails>
  </>
);

function RetrievalSection({ record }: { record: TurnRecord }) {
  const { retrieval, question, runs } = record;
  return (
    <Section testId="retrieval" title="Retrieval" meta={retrieval.rewritten ? 'rewritten query' : 'query as asked'} help={RETRIEVAL_HELP}>
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
        <div className="mt-3 text-xs font-medium text-muted">
          <Explained label="What asked for and found mean" testId="top-k-help" help={TOP_K_HELP}>
            <span>Searches</span>
          </Explained>
        </div>
      ) : null}
      {runs.length > 0 ? (
        <table className="mt-1 w-full text-left text-xs" data-testid="retrieval-runs">
          <caption className="sr-only">Searches run for this reply</caption>
          <thead className="text-faint">
            <tr>
              <th className="py-1 font-medium">Search</th>
              <th className="py-1 text-right font-medium" title="How many memories the search looked for (its top k), before the budget">
                asked&nbsp;for
              </th>
              <th className="py-1 text-right font-medium" title="How many it returned (fewer when less is stored or relevant)">
                found
              </th>
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
