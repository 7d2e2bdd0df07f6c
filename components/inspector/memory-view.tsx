'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, memoryKeys } from '../api';
import { ConfirmDialog } from '../confirm-dialog';
import { TrashIcon } from '../icons';
import { FactsSection } from './facts-view';
import { SummarySection } from './summary-section';
import { Notice } from './ui';

/** The Memory tab: this conversation's summary, the facts about the user, and forgetting it all. */
export function MemoryView({ conversationId, onReveal }: { conversationId: string; onReveal: () => void }) {
  return (
    <div>
      <SummarySection conversationId={conversationId} />
      <FactsSection conversationId={conversationId} onReveal={onReveal} />
      <ForgetEverything />
    </div>
  );
}

const TABLE_NAMES: Record<string, [string, string]> = {
  facts: ['fact', 'facts'],
  episodes: ['remembered exchange', 'remembered exchanges'],
  summaries: ['summary', 'summaries'],
  summary_versions: ['summary version', 'summary versions'],
  retrieval_cache: ['cached search', 'cached searches'],
};

function describeCount(table: string, n: number): string {
  const [one, many] = TABLE_NAMES[table] ?? [table.replaceAll('_', ' '), table.replaceAll('_', ' ')];
  return `${n} ${n === 1 ? one : many}`;
}

function ForgetEverything() {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const forget = useMutation({
    mutationFn: api.forgetEverything,
    onSuccess: async ({ deleted }) => {
      setConfirming(false);
      const total = Object.values(deleted).reduce((sum, n) => sum + n, 0);
      setDone(
        total === 0
          ? 'There was nothing to forget.'
          : `Forgotten: ${Object.entries(deleted)
              .filter(([, n]) => n > 0)
              .map(([table, n]) => describeCount(table, n))
              .join(', ')}.`,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: memoryKeys.factsAll }),
        queryClient.invalidateQueries({ queryKey: ['memory', 'summary'] }),
        queryClient.removeQueries({ queryKey: ['memory', 'fact'] }),
      ]);
    },
  });

  return (
    <section data-testid="danger-zone" aria-label="Forget everything" className="m-4 rounded-lg border border-danger/30 p-3">
      <h3 className="text-sm font-semibold text-danger">Forget everything</h3>
      <p className="mt-1 text-xs leading-5 text-muted">
        Deletes every fact, remembered exchange and conversation summary memlens keeps about you. Your conversations and their
        messages stay.
      </p>
      {done ? (
        <div className="mt-2">
          <Notice testId="forget-result">{done}</Notice>
        </div>
      ) : null}
      <button
        type="button"
        data-testid="forget-everything"
        onClick={() => {
          forget.reset();
          setDone(null);
          setConfirming(true);
        }}
        className="mt-3 inline-flex items-center gap-1.5 rounded-lg border border-danger/40 px-3 py-1.5 text-sm font-medium text-danger hover:bg-danger-soft"
      >
        <TrashIcon width={14} height={14} />
        Forget everything…
      </button>
      <ConfirmDialog
        open={confirming}
        title="Forget everything about you?"
        description="Every fact, remembered exchange and summary is deleted at once, in all your conversations. This cannot be undone."
        confirmLabel="Forget everything"
        busy={forget.isPending}
        error={forget.error ? forget.error.message : null}
        onConfirm={() => forget.mutate()}
        onCancel={() => setConfirming(false)}
        testId="forget-dialog"
      />
    </section>
  );
}
