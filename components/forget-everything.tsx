'use client';

import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, memoryKeys } from './api';
import type { ForgetResult, MemoryCounts } from './api-types';
import { ConfirmDialog } from './confirm-dialog';
import { TrashIcon } from './icons';
import { useAfterMemoryChange } from './memory-changed';
import { Notice } from './ui/badge';
import { plural } from './ui/format';

// "Forget everything", as the inspector's Memory tab and the Memory page both offer it: the same words,
// the same counts read when the dialog opens, the same result. Each place frames it with its own heading.

export const FORGET_EVERYTHING_DESCRIPTION =
  'Deletes every fact, remembered exchange and conversation summary memlens keeps about you, and nothing you said before is remembered again. Your conversations and their messages stay; inspector records stay with the memory they recalled redacted.';

const TABLE_NAMES: Record<string, [string, string]> = {
  facts: ['fact', 'facts'],
  episodes: ['remembered exchange', 'remembered exchanges'],
  summaries: ['conversation summary', 'conversation summaries'],
  summary_versions: ['earlier summary version', 'earlier summary versions'],
  retrieval_cache: ['cached search', 'cached searches'],
};
const ORDER = Object.keys(TABLE_NAMES);
const rank = (table: string) => (ORDER.includes(table) ? ORDER.indexOf(table) : ORDER.length);

function describeCount(table: string, n: number): string {
  const words = TABLE_NAMES[table] ?? [table.replaceAll('_', ' '), table.replaceAll('_', ' ')];
  return plural(n, words[0], words[1]);
}

function joinWords(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** "3 facts, 5 remembered exchanges and 1 conversation summary": the same words in the dialog and in the result. */
function describeRemoved(counts: Record<string, number>): string {
  const tables = Object.keys(counts).sort((a, b) => rank(a) - rank(b));
  return joinWords(tables.filter((table) => counts[table] > 0).map((table) => describeCount(table, counts[table])));
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0);
const sameCounts = (a: Record<string, number>, b: Record<string, number>) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].every((key) => (a[key] ?? 0) === (b[key] ?? 0));
const describeKept = (kept: MemoryCounts['kept']) =>
  `${plural(kept.conversations, 'conversation')} with ${plural(kept.messages, 'message')}`;

type Outcome = { result: ForgetResult; plan: MemoryCounts | undefined };

/** The "Forget everything…" button, its dialog with what would be removed, and what was, once done. */
export function ForgetEverything() {
  const queryClient = useQueryClient();
  const afterMemoryChange = useAfterMemoryChange();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // What would be removed now: read each time the dialog opens (never a count from an earlier opening).
  const plan = useQuery({ queryKey: memoryKeys.counts, queryFn: api.memoryCounts, enabled: confirming, staleTime: 0, retry: 1 });
  const forget = useMutation({
    mutationFn: (_plan: MemoryCounts | undefined) => api.forgetEverything(),
    onSuccess: (result, shown) => {
      setConfirming(false);
      setOutcome({ result, plan: shown });
      queryClient.removeQueries({ queryKey: ['memory', 'fact'] });
      queryClient.removeQueries({ queryKey: memoryKeys.counts });
      afterMemoryChange();
    },
  });

  const open = () => {
    forget.reset();
    setOutcome(null);
    queryClient.removeQueries({ queryKey: memoryKeys.counts });
    setConfirming(true);
  };

  return (
    <>
      {outcome ? (
        <div className="mb-3">
          <ForgetOutcome outcome={outcome} />
        </div>
      ) : null}
      <button
        type="button"
        data-testid="forget-everything"
        onClick={open}
        className="inline-flex items-center gap-1.5 rounded-lg border border-danger/40 px-3 py-1.5 text-sm font-medium text-danger hover:bg-danger-soft"
      >
        <TrashIcon width={14} height={14} />
        Forget everything…
      </button>
      <ConfirmDialog
        open={confirming}
        title="Forget everything about you?"
        description={<ForgetPlan query={plan} />}
        confirmLabel="Forget everything"
        busy={forget.isPending}
        // Confirming without the counts would promise nothing; after a failed count, the general words above still hold.
        confirmDisabled={plan.isPending && !plan.isError}
        error={forget.error ? forget.error.message : null}
        onConfirm={() => forget.mutate(plan.data)}
        onCancel={() => setConfirming(false)}
        testId="forget-dialog"
      />
    </>
  );
}

function ForgetPlan({ query }: { query: UseQueryResult<MemoryCounts> }) {
  if (query.isPending && !query.isError) {
    return (
      <p data-testid="forget-plan-loading" role="status">
        Counting what memlens keeps about you…
      </p>
    );
  }
  if (query.isError || !query.data) {
    return (
      <p>
        Could not count what would be removed ({query.error?.message ?? 'no answer'}). Every fact, remembered exchange and summary is
        deleted, in all your conversations; your conversations and messages stay. You can undo it for a while afterwards, under Recent
        changes on the Memory page.
      </p>
    );
  }
  const { removed, kept, undoMinutes } = query.data;
  const nothing = total(removed) === 0;
  return (
    <div data-testid="forget-plan" className="space-y-2">
      {nothing ? (
        <p>
          <span data-testid="forget-plan-removed">Nothing</span> to remove: memlens keeps no facts, remembered exchanges or summaries about
          you.
        </p>
      ) : (
        <p>
          Removed at once, in all your conversations:{' '}
          <strong data-testid="forget-plan-removed" className="font-semibold text-fg">
            {describeRemoved(removed)}
          </strong>
          . Nothing you said before now is remembered again.
        </p>
      )}
      <p>
        Kept as they are:{' '}
        <span data-testid="forget-plan-kept" className="font-medium text-fg">
          {describeKept(kept)}
        </span>
        . The inspector records of earlier replies stay too, with the memory they recalled redacted.
      </p>
      {nothing ? null : (
        <p data-testid="forget-plan-undo">
          You can undo this for {plural(undoMinutes, 'minute')}: the facts come back, and remembered exchanges and summaries are made again
          from your messages. A later change to memory (a fact learned in a new chat, say) must be undone first. A summary you edited by
          hand is rebuilt rather than restored, and inspector records stay redacted.
        </p>
      )}
    </div>
  );
}

function ForgetOutcome({ outcome }: { outcome: Outcome }) {
  const { result, plan } = outcome;
  const removed = total(result.deleted);
  return (
    <Notice testId="forget-result">
      <p role="status">
        {removed === 0 ? (
          'There was nothing to forget.'
        ) : (
          <>
            Forgotten: <span data-testid="forget-result-removed">{describeRemoved(result.deleted)}</span>.
          </>
        )}{' '}
        {plan ? `Kept as they are: ${describeKept(plan.kept)}. ` : 'Your conversations and messages are kept as they are. '}
        <span data-testid="forget-result-records">{plural(result.recordsRedacted, 'inspector record')}</span> redacted.
      </p>
      {plan && !sameCounts(plan.removed, result.deleted) ? (
        <p className="mt-1 text-xs" data-testid="forget-result-changed">
          Memory changed while the dialog was open (memlens had just learned something): these are the counts actually removed.
        </p>
      ) : null}
    </Notice>
  );
}
