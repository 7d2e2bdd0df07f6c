'use client';

import type { WhyAnswer } from '../api-types';
import { describeActor, type Viewer } from '../describe-actor';
import { formatGap, formatRelative, formatScore, ordinal } from '../ui/format';

type Search = WhyAnswer['searches'][number];
type Correction = NonNullable<WhyAnswer['correction']>;

const SEARCH_NAMES: Record<Search['name'], string> = {
  facts: 'Your facts',
  this_conversation: 'Exchanges of this conversation',
  other_conversations: 'Exchanges of your other conversations',
};

const CORRECTION_VERBS: Record<Correction['action'], string> = {
  deleted: 'deleted',
  edited: 'edited',
  replaced: 'replaced by a newer one',
  forgotten: 'forgotten',
  cleared: 'cleared',
};

/** "deleted by staff (“reason”) 3 minutes before this reply". */
function describeCorrection(correction: Correction, replyAt: string, viewer: Viewer): string {
  const who = correction.by ? ` by ${describeActor(correction.by, viewer)}` : '';
  const why = correction.reason ? ` (“${correction.reason}”)` : '';
  const when = new Date(correction.at) < new Date(replyAt) ? 'before' : 'after';
  return `${CORRECTION_VERBS[correction.action]}${who}${why} ${formatGap(replyAt, correction.at)} ${when} this reply`;
}

/** The answer in plain words: one sentence, and what happened to the item since, if anything. */
function whySentence(answer: WhyAnswer, viewer: Viewer): string {
  const [search] = answer.searches;
  const standing = search?.standing;
  switch (answer.verdict) {
    case 'sent':
      return answer.budget?.cited
        ? 'It was sent with this reply, and the reply cited it.'
        : 'It was sent with this reply; the reply did not cite it.';
    case 'in_window':
      return 'Its messages were sent as they are, as part of the recent conversation, so it was not sent a second time as a memory.';
    case 'cut_by_budget':
      return `It was found, but there was no room left for it${answer.budget?.reason ? `: ${answer.budget.reason}` : ''}.`;
    case 'learned_later':
      return `memlens learned it ${answer.item.learnedAt ? `${formatGap(answer.reply.at, answer.item.learnedAt)} ` : ''}after this reply.`;
    case 'corrected':
      return answer.correction ? `It was ${describeCorrection(answer.correction, answer.reply.at, viewer)}.` : 'It was corrected.';
    case 'not_searched':
      return `It was not looked for: ${answer.notSearched ?? 'this kind of memory was not searched'}.`;
    case 'not_similar_enough':
      return search?.name === 'other_conversations'
        ? 'It was not close enough to the question: memories from other conversations must be close in meaning or share enough words with it.'
        : 'It was not close enough in meaning to the question, and shares none of its words.';
    case 'ranked_below':
      return standing?.fusedRank
        ? `Other memories matched the question better: it came ${ordinal(standing.fusedRank)}, and memlens takes the best ${search.topK}.`
        : `Other memories matched the question better: it was not among the best ${standing?.pool ?? search?.topK} either by meaning or by words.`;
    case 'changed_since':
      return 'Searched again now it would be found: your memory has changed since this reply.';
  }
}

/** The answer: plain words first, the scores and ranks behind "Technical details". */
export function WhyAnswerView({ answer, viewer }: { answer: WhyAnswer; viewer: Viewer }) {
  const later = answer.verdict !== 'corrected' && answer.correction ? answer.correction : null;
  return (
    <div data-testid="why-answer" data-verdict={answer.verdict} className="space-y-2 text-sm">
      <p data-testid="why-sentence" className="leading-6">
        {whySentence(answer, viewer)}
      </p>
      {later ? (
        <p data-testid="why-since" className="text-xs text-muted">
          Since then it was {describeCorrection(later, answer.reply.at, viewer)}.
        </p>
      ) : null}
      <details className="rounded-md border border-line px-2.5 py-1.5 text-xs" data-testid="why-details">
        <summary className="cursor-pointer text-muted select-none">Technical details</summary>
        <dl className="mt-2 space-y-1 text-muted">
          <Row label="Reply">
            <time dateTime={answer.reply.at} title={answer.reply.at}>
              {formatRelative(answer.reply.at)}
            </time>
          </Row>
          <Row label="Searched with">
            <code className="font-mono break-words">{answer.reply.query}</code>
          </Row>
          <Row label="Verdict">
            <code className="font-mono">{answer.verdict}</code>
          </Row>
          {answer.budget ? (
            <Row label="Budget">
              {answer.budget.kept ? 'kept' : 'dropped'}
              {answer.budget.tokens !== null ? ` · ${answer.budget.tokens} tokens` : ''}
              {answer.budget.reason ? ` · ${answer.budget.reason}` : ''}
            </Row>
          ) : null}
          {answer.searches.map((search) => (
            <SearchRows key={search.name} search={search} />
          ))}
          {answer.wordsOnly ? <Row label="Note">The question could not be embedded now: only the words were compared.</Row> : null}
        </dl>
      </details>
    </div>
  );
}

function SearchRows({ search }: { search: Search }) {
  const { standing } = search;
  return (
    <>
      <Row label="Search">
        {SEARCH_NAMES[search.name]}, best {search.topK} taken (each half hands on its best {standing.pool})
      </Row>
      <Row label="By meaning">
        similarity {formatScore(standing.vectorScore)} (bar {search.minSimilarity}
        {search.otherMinSimilarity !== undefined ? `, other conversations ${search.otherMinSimilarity}` : ''}) · rank{' '}
        {standing.vectorRank ?? '—'}
      </Row>
      <Row label="By the words">
        {standing.sharedTerms.length > 0 ? `shares ${standing.sharedTerms.join(', ')}` : 'shares no word'} · rank{' '}
        {standing.lexicalRank ?? '—'}
      </Row>
      <Row label="Combined">
        {standing.fusedRank === null
          ? `not among the ${standing.fusedCount} combined`
          : `rank ${standing.fusedRank} of ${standing.fusedCount}`}{' '}
        (reciprocal rank fusion) · {search.passedBar ? 'cleared the bar' : 'below the bar'}
      </Row>
    </>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-2">
      <dt className="text-faint">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}
