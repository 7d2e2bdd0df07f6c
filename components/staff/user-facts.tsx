'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { PencilIcon, TrashIcon } from '../icons';
import { Badge, StatusLine } from '../ui/badge';
import { Card } from '../ui/card';
import { formatDate, formatDateTime, plural } from '../ui/format';
import { Empty } from '../ui/loading';
import { buttons } from '../ui/styles';
import { VisibleText } from '../visible-text';
import { staffApi, staffKeys } from './api';
import { ReasonDialog } from './reason-dialog';
import type { StaffFact } from './types';

// A user's facts in the staff console: each with its sources, edited or deleted with a reason.

const FACTS_HELP = (
  <>
    <p>
      Facts are what memlens learned about the user from their own messages (or what they added by hand). <b>Active</b> facts are recalled
      into replies; a <b>replaced</b> fact was superseded by a newer one of the same kind and is kept with its end date; <b>deleted</b> ones
      are no longer recalled.
    </p>
    <p>
      <b>Edit</b>: the new text is what later replies see; the user&apos;s messages that stated the old text are marked “corrected”.{' '}
      <b>Delete</b>: the fact goes, the statements are marked “forgotten”, and turn records that quoted it are redacted. Both work exactly
      like the user&apos;s own corrections and are written to the audit log with your reason.
    </p>
  </>
);

const STATUS_LABEL: Record<StaffFact['status'], { label: string; tone: 'good' | 'neutral' | 'danger' }> = {
  active: { label: 'active', tone: 'good' },
  superseded: { label: 'replaced', tone: 'neutral' },
  deleted: { label: 'deleted', tone: 'danger' },
};

type Pending = { kind: 'edit' | 'delete'; fact: StaffFact } | null;

export function FactsCard({ userId, facts, titles }: { userId: string; facts: StaffFact[]; titles: Map<string, string> }) {
  const queryClient = useQueryClient();
  const [showAll, setShowAll] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [done, setDone] = useState<string | null>(null);
  const active = facts.filter((f) => f.status === 'active');
  const shown = showAll ? facts : active;

  const change = useMutation({
    mutationFn: async ({ kind, fact, reason, content }: { kind: 'edit' | 'delete'; fact: StaffFact; reason: string; content: string }) => {
      if (kind === 'edit') {
        await staffApi.editFact(fact.id, content, reason);
        return 'Fact updated.';
      }
      const result = await staffApi.deleteFact(fact.id, reason);
      if (result.deleted.length === 0) return 'Nothing to delete: the fact had already ended.';
      return `Fact deleted${result.messagesMarked ? `; ${plural(result.messagesMarked, 'message')} marked forgotten` : ''}${
        result.recordsRedacted ? `, ${plural(result.recordsRedacted, 'turn record')} redacted` : ''
      }.`;
    },
    onSuccess: (message) => {
      setPending(null);
      setDone(message);
      void queryClient.invalidateQueries({ queryKey: staffKeys.user(userId) });
      void queryClient.invalidateQueries({ queryKey: ['staff', 'audit'] });
      void queryClient.invalidateQueries({ queryKey: ['staff', 'conversation'] });
    },
  });

  return (
    <Card
      title="Facts"
      meta={`${active.length} active${facts.length > active.length ? ` · ${facts.length - active.length} ended` : ''}`}
      help={FACTS_HELP}
      testId="user-facts"
      actions={
        facts.length > active.length ? (
          // biome-ignore lint/a11y/useSemanticElements: a pair of toggle buttons, not form fields: a fieldset brings its own rendering quirks for no gain
          <div role="group" aria-label="Which facts" className="inline-flex rounded-lg border border-line p-0.5 text-xs">
            {[
              [false, 'Active'],
              [true, 'All'],
            ].map(([value, label]) => (
              <button
                key={String(value)}
                type="button"
                aria-pressed={showAll === value}
                onClick={() => setShowAll(value as boolean)}
                className={`rounded-md px-2.5 py-1 font-medium ${showAll === value ? 'bg-accent-soft text-accent' : 'text-muted hover:text-fg'}`}
              >
                {label as string}
              </button>
            ))}
          </div>
        ) : null
      }
    >
      {done ? (
        <div className="mb-3">
          <StatusLine testId="fact-change-done">
            {done}{' '}
            <Link href={`/staff/audit?targetUserId=${userId}&objectType=fact`} className="font-medium underline underline-offset-2">
              See it in the audit log
            </Link>
          </StatusLine>
        </div>
      ) : null}
      {shown.length === 0 ? (
        <Empty title={facts.length === 0 ? 'No facts yet' : 'No active facts'} testId="facts-empty">
          {facts.length === 0
            ? 'memlens learns facts from what the user tells it about themselves (name, home, work, likes…) right after each reply.'
            : 'Every fact this user had was replaced or deleted. Choose “All” to see them.'}
        </Empty>
      ) : (
        <ul className="space-y-2" data-testid="fact-list">
          {shown.map((fact) => (
            <FactRow
              key={fact.id}
              fact={fact}
              conversationTitle={fact.conversationId ? (titles.get(fact.conversationId) ?? null) : null}
              onEdit={() => {
                change.reset();
                setPending({ kind: 'edit', fact });
              }}
              onDelete={() => {
                change.reset();
                setPending({ kind: 'delete', fact });
              }}
            />
          ))}
        </ul>
      )}
      <ReasonDialog
        open={pending?.kind === 'edit'}
        testId="edit-fact-dialog"
        title="Edit this fact"
        description={
          <>Later replies will see the new text. The user&apos;s messages that stated it stay as written, marked as corrected.</>
        }
        content={{ label: 'Fact', initial: pending?.kind === 'edit' ? pending.fact.content : '' }}
        confirmLabel="Save fact"
        busy={change.isPending}
        error={change.error?.message ?? null}
        onCancel={() => setPending(null)}
        onConfirm={({ reason, content }) => pending && change.mutate({ kind: 'edit', fact: pending.fact, reason, content })}
      />
      <ReasonDialog
        open={pending?.kind === 'delete'}
        testId="delete-fact-dialog"
        title="Delete this fact?"
        tone="danger"
        description={
          <>
            <span className="mb-1 block text-fg">
              “<VisibleText text={pending?.fact.content ?? ''} />”
            </span>
            memlens forgets it everywhere: it is no longer recalled, the messages that stated it are marked forgotten, and turn records that
            quoted it are redacted. This cannot be undone.
          </>
        }
        confirmLabel="Delete fact"
        busy={change.isPending}
        error={change.error?.message ?? null}
        onCancel={() => setPending(null)}
        onConfirm={({ reason }) => pending && change.mutate({ kind: 'delete', fact: pending.fact, reason, content: '' })}
      />
    </Card>
  );
}

function FactRow({
  fact,
  conversationTitle,
  onEdit,
  onDelete,
}: {
  fact: StaffFact;
  conversationTitle: string | null;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const status = STATUS_LABEL[fact.status];
  const source = fact.sourceMessageIds[0];
  return (
    <li
      data-testid="staff-fact"
      data-fact-id={fact.id}
      data-status={fact.status}
      className={`rounded-lg border p-3 ${fact.status === 'active' ? 'border-line bg-surface' : 'border-dashed border-line bg-subtle/50'}`}
    >
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <p
          className={`min-w-0 flex-1 basis-48 text-sm leading-6 break-words ${fact.status === 'active' ? '' : 'text-muted'}`}
          data-testid="staff-fact-content"
        >
          <VisibleText text={fact.content} />
        </p>
        {fact.status === 'active' ? (
          <div className="flex shrink-0 items-center gap-1">
            <button
              type="button"
              data-testid="edit-fact"
              onClick={onEdit}
              className={buttons.quiet}
              aria-label={`Edit the fact “${fact.content}”`}
            >
              <PencilIcon width={13} height={13} />
              Edit
            </button>
            <button
              type="button"
              data-testid="delete-fact"
              onClick={onDelete}
              className={buttons.quietDanger}
              aria-label={`Delete the fact “${fact.content}”`}
            >
              <TrashIcon width={13} height={13} />
              Delete
            </button>
          </div>
        ) : null}
      </div>
      <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-xs text-muted">
        <Badge tone={status.tone}>{status.label}</Badge>
        <Badge title="The kind of fact: a newer fact of the same kind replaces the old one">{fact.slot}</Badge>
        <span title={`Valid from ${formatDateTime(fact.validFrom)}${fact.validTo ? ` to ${formatDateTime(fact.validTo)}` : ''}`}>
          since {formatDate(fact.validFrom)}
          {fact.validTo ? ` until ${formatDate(fact.validTo)}` : ''}
        </span>
        {fact.conversationId ? (
          <>
            <span aria-hidden="true">·</span>
            <Link
              href={`/staff/conversations/${fact.conversationId}${source ? `#message-${source}` : ''}`}
              className="min-w-0 truncate text-accent hover:underline"
              title="Open the conversation it was learned in, at the message that stated it"
            >
              learned in “{conversationTitle ?? 'a conversation'}”
            </Link>
          </>
        ) : (
          <>
            <span aria-hidden="true">·</span>
            <span>added by hand</span>
          </>
        )}
      </div>
    </li>
  );
}
