'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { StatusLine } from '../ui/badge';
import { Card } from '../ui/card';
import { formatDateTime, plural } from '../ui/format';
import { buttons } from '../ui/styles';
import { VisibleText } from '../visible-text';
import { staffApi, staffKeys } from './api';
import { ReasonDialog } from './reason-dialog';
import type { StaffSummary } from './types';

// A conversation's rolling summary in the staff console, and clearing it (with a reason).

const SUMMARY_HELP = (
  <>
    <p>
      The rolling summary stands in for the older messages that the recent window no longer sends. <b>Version</b> goes up with every
      refresh, edit or clear. <b>Covers</b>: how many of the oldest messages it stands for.
    </p>
    <p>
      <b>Clear</b> empties it and sets a clear point: later refreshes only cover messages written after it, so what was cleared never comes
      back. The earlier exchanges can still be recalled on their own. Clearing is written to the audit log with your reason.
    </p>
  </>
);

function describeUpdater(updatedBy: string, ownerId: string): string {
  if (updatedBy === 'system') return 'memlens (automatic refresh)';
  if (updatedBy === `user:${ownerId}` || updatedBy === 'user') return 'the user';
  if (updatedBy.startsWith('user:') || updatedBy.startsWith('staff:')) return `staff ${updatedBy.split(':')[1].slice(0, 8)}`;
  return updatedBy;
}

export function SummaryCard({ conversationId, userId, summary }: { conversationId: string; userId: string; summary: StaffSummary | null }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const clear = useMutation({
    mutationFn: (reason: string) => staffApi.clearSummary(conversationId, reason),
    onSuccess: () => {
      setConfirming(false);
      setDone(true);
      void queryClient.invalidateQueries({ queryKey: staffKeys.conversation(conversationId) });
      void queryClient.invalidateQueries({ queryKey: ['staff', 'audit'] });
    },
  });
  const empty = !summary || summary.content.trim() === '';
  return (
    <Card
      title="Summary"
      meta={summary ? `v${summary.version} · covers ${plural(summary.coveredMessageCount, 'message')}` : undefined}
      help={SUMMARY_HELP}
      testId="staff-summary"
      actions={
        !empty ? (
          <button
            type="button"
            data-testid="clear-summary"
            onClick={() => {
              clear.reset();
              setConfirming(true);
            }}
            className={buttons.secondary}
          >
            Clear summary
          </button>
        ) : null
      }
    >
      {done ? (
        <div className="mb-3">
          <StatusLine testId="summary-cleared">
            Summary cleared.{' '}
            <Link href={`/staff/audit?targetUserId=${userId}&objectType=summary`} className="font-medium underline underline-offset-2">
              See it in the audit log
            </Link>
          </StatusLine>
        </div>
      ) : null}
      {!summary ? (
        <p className="text-sm text-muted" data-testid="summary-none">
          No summary yet: a conversation gets one once it is long enough (10 messages by default), covering its older messages.
        </p>
      ) : empty ? (
        <p className="text-sm text-muted" data-testid="summary-empty">
          Empty: cleared by {describeUpdater(summary.updatedBy, userId)} on {formatDateTime(summary.updatedAt)}. Only messages written since
          will be summarised.
        </p>
      ) : (
        <>
          <p className="text-sm leading-6 whitespace-pre-wrap" data-testid="summary-content">
            <VisibleText text={summary.content} />
          </p>
          <p className="mt-2 text-xs text-muted">
            Last updated by {describeUpdater(summary.updatedBy, userId)} on {formatDateTime(summary.updatedAt)}.
          </p>
        </>
      )}
      <ReasonDialog
        open={confirming}
        testId="clear-summary-dialog"
        tone="danger"
        title="Clear this summary?"
        description="It becomes empty, and later refreshes only cover messages written after now, so what it said is never summarised again."
        confirmLabel="Clear summary"
        busy={clear.isPending}
        error={clear.error?.message ?? null}
        onCancel={() => setConfirming(false)}
        onConfirm={({ reason }) => clear.mutate(reason)}
      />
    </Card>
  );
}
