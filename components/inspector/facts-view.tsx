'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { api, memoryKeys } from '../api';
import { ConfirmDialog } from '../confirm-dialog';
import { HistoryIcon, PencilIcon, RefreshIcon, TrashIcon } from '../icons';
import { useAfterMemoryChange } from './memory-changed';
import type { Fact, FactDeleteResult, FactEvent } from './types';
import { Badge, describeActor, formatDate, formatDateTime, Notice, Section, Skeleton, SourceLinks } from './ui';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a fact deletion did, as the server counted it. */
export function describeFactDeletion(result: Pick<FactDeleteResult, 'messagesMarked' | 'recordsRedacted'>): string {
  return `Forgotten. ${plural(result.messagesMarked, 'message')} marked, ${plural(result.recordsRedacted, 'inspector record')} redacted.`;
}

/** What memlens knows about the user across conversations, by slot: edit, delete, and each fact's history. */
export function FactsSection({ conversationId, onReveal }: { conversationId: string; onReveal: () => void }) {
  const [showAll, setShowAll] = useState(false);
  const [deleted, setDeleted] = useState<string | null>(null);
  const scope = showAll ? 'all' : 'active';
  const query = useQuery({
    queryKey: memoryKeys.facts(scope),
    queryFn: () => api.listFacts(showAll ? undefined : 'active'),
    staleTime: 2_000,
  });
  const facts = query.data ?? [];
  const activeCount = facts.filter((f) => f.status === 'active').length;
  const groups = groupBySlot(facts);

  return (
    <Section testId="facts" title="Facts about you" meta={query.data ? `${activeCount} active` : undefined}>
      <div className="mb-3 flex items-center gap-3">
        <label className="inline-flex items-center gap-2 text-xs text-muted">
          <input
            type="checkbox"
            data-testid="facts-show-all"
            checked={showAll}
            onChange={(event) => setShowAll(event.target.checked)}
            className="size-3.5 accent-[var(--color-accent)]"
          />
          Show superseded and deleted
        </label>
        <button
          type="button"
          data-testid="facts-refresh"
          onClick={() => void query.refetch()}
          className="ml-auto inline-flex items-center gap-1 rounded-md px-1.5 py-1 text-xs text-muted hover:bg-subtle hover:text-fg"
          aria-label="Reload facts"
          title="Reload facts"
        >
          <RefreshIcon width={13} height={13} className={query.isFetching ? 'animate-spin' : undefined} />
        </button>
      </div>

      {deleted ? (
        <div className="mb-3">
          <Notice testId="fact-delete-result">
            <span role="status" className="flex items-start gap-2">
              <span className="min-w-0 flex-1">{deleted}</span>
              <button type="button" onClick={() => setDeleted(null)} className="text-xs underline hover:text-fg">
                Dismiss
              </button>
            </span>
          </Notice>
        </div>
      ) : null}

      {query.isPending ? (
        <Skeleton lines={3} />
      ) : query.isError ? (
        <Notice tone="danger">Could not load the facts: {query.error.message}</Notice>
      ) : facts.length === 0 ? (
        <p className="text-sm text-muted" data-testid="facts-empty">
          {showAll
            ? 'memlens keeps no facts about you.'
            : 'No facts yet. When you tell memlens about yourself (your name, where you live, what you like), it remembers it here.'}
        </p>
      ) : (
        <div className="space-y-4">
          {groups.map(([slot, items]) => (
            <div key={slot} data-testid="fact-slot" data-slot={slot}>
              <h4 className="mb-1.5 text-xs font-medium text-muted">
                <span className="font-mono">{slot}</span>
              </h4>
              <ul className="space-y-2">
                {items.map((fact) => (
                  <FactRow
                    key={fact.id}
                    fact={fact}
                    conversationId={conversationId}
                    onReveal={onReveal}
                    onDeleting={() => setDeleted(null)}
                    onDeleted={(result) => setDeleted(describeFactDeletion(result))}
                  />
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </Section>
  );
}

function groupBySlot(facts: Fact[]): Array<[string, Fact[]]> {
  const groups = new Map<string, Fact[]>();
  for (const fact of facts) groups.set(fact.slot, [...(groups.get(fact.slot) ?? []), fact]);
  const order = (f: Fact) => (f.status === 'active' ? 0 : 1);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([slot, items]) => [slot, items.sort((a, b) => order(a) - order(b) || b.validFrom.localeCompare(a.validFrom))]);
}

function FactRow({
  fact,
  conversationId,
  onReveal,
  onDeleting,
  onDeleted,
}: {
  fact: Fact;
  conversationId: string;
  onReveal: () => void;
  onDeleting: () => void;
  onDeleted: (result: FactDeleteResult) => void;
}) {
  const queryClient = useQueryClient();
  const afterMemoryChange = useAfterMemoryChange();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(fact.content);
  const [showHistory, setShowHistory] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const inputId = useId();
  const active = fact.status === 'active';

  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: memoryKeys.factsAll }),
      queryClient.invalidateQueries({ queryKey: memoryKeys.fact(fact.id) }),
    ]);

  const edit = useMutation({
    mutationFn: (content: string) => api.editFact(fact.id, content),
    onSuccess: async () => {
      setEditing(false);
      await invalidate();
      // Earlier mentions of the old text are marked corrected in the chat.
      afterMemoryChange();
    },
  });

  const remove = useMutation({
    mutationFn: () => api.deleteFact(fact.id),
    onSuccess: (result) => {
      setConfirmDelete(false);
      onDeleted(result);
      queryClient.setQueriesData<Fact[]>({ queryKey: memoryKeys.factsAll }, (list) => list?.filter((f) => f.id !== fact.id));
      queryClient.removeQueries({ queryKey: memoryKeys.fact(fact.id) });
      // The facts, the summaries and the turn records changed on the server; the chat's messages are marked.
      afterMemoryChange();
    },
  });

  const submit = () => {
    const content = draft.trim();
    if (!content || content === fact.content) {
      setEditing(false);
      return;
    }
    edit.mutate(content);
  };

  return (
    <li
      data-testid="fact"
      data-fact-id={fact.id}
      data-status={fact.status}
      className={`rounded-lg border p-2.5 text-sm ${active ? 'border-line bg-surface' : 'border-dashed border-line bg-subtle/50 text-muted'}`}
    >
      {editing ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          className="space-y-2"
        >
          <label htmlFor={inputId} className="sr-only">
            Fact
          </label>
          <input
            id={inputId}
            data-testid="fact-input"
            value={draft}
            maxLength={2000}
            autoFocus
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                setEditing(false);
              }
            }}
            className="w-full rounded-md border border-accent bg-canvas px-2 py-1.5 text-sm outline-none"
          />
          {edit.isError ? <p className="text-xs text-danger" role="alert">Could not save: {edit.error.message}</p> : null}
          <div className="flex justify-end gap-2">
            <button type="button" onClick={() => setEditing(false)} className="rounded-md px-2.5 py-1 text-xs font-medium hover:bg-subtle">
              Cancel
            </button>
            <button
              type="submit"
              data-testid="fact-save"
              disabled={edit.isPending || draft.trim() === ''}
              className="rounded-md bg-accent px-2.5 py-1 text-xs font-medium text-on-accent hover:bg-accent-hover disabled:opacity-60"
            >
              {edit.isPending ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      ) : (
        <div className="flex items-start gap-2">
          <p className="min-w-0 flex-1 leading-5 break-words" data-testid="fact-content">
            {fact.content}
          </p>
          {!active ? (
            <Badge tone={fact.status === 'deleted' ? 'danger' : 'warn'} testId="fact-status">
              {fact.status}
            </Badge>
          ) : null}
        </div>
      )}

      <div className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-[11px] text-muted">
        <span title={formatDateTime(fact.validFrom)}>since {formatDate(fact.validFrom)}</span>
        {fact.validTo ? (
          <span title={formatDateTime(fact.validTo)} data-testid="fact-valid-to">
            until {formatDate(fact.validTo)}
          </span>
        ) : null}
        <span>·</span>
        {fact.conversationId === conversationId ? (
          <span>this conversation</span>
        ) : fact.conversationId ? (
          <Link href={`/c/${fact.conversationId}`} className="text-accent hover:underline">
            another conversation
          </Link>
        ) : (
          <span>no conversation</span>
        )}
        <SourceLinks ids={fact.sourceMessageIds} onReveal={onReveal} />
      </div>

      {!editing ? (
        <div className="mt-2 flex items-center gap-1">
          {active ? (
            <button
              type="button"
              data-testid="fact-edit"
              onClick={() => {
                setDraft(fact.content);
                edit.reset();
                setEditing(true);
              }}
              className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-muted hover:bg-subtle hover:text-fg"
            >
              <PencilIcon width={12} height={12} /> Edit
            </button>
          ) : null}
          <button
            type="button"
            data-testid="fact-delete"
            onClick={() => {
              remove.reset();
              onDeleting();
              setConfirmDelete(true);
            }}
            className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-muted hover:bg-danger-soft hover:text-danger"
          >
            <TrashIcon width={12} height={12} /> Delete
          </button>
          <button
            type="button"
            data-testid="fact-history-toggle"
            aria-expanded={showHistory}
            onClick={() => setShowHistory((value) => !value)}
            className="ml-auto inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-muted hover:bg-subtle hover:text-fg"
          >
            <HistoryIcon width={12} height={12} /> History
          </button>
        </div>
      ) : null}

      {showHistory ? <FactHistory factId={fact.id} /> : null}

      {/* Mounted only while asked: one list holds many facts, the page needs one such dialog at a time. */}
      {confirmDelete ? (
        <ConfirmDialog
          open
          title="Delete this fact?"
          description={`“${fact.content}” is deleted with its history, and memlens stops recalling it: the statement is removed from the exchanges and summaries it remembers. Your messages stay in the chat, with the part that said it marked as forgotten and no longer sent to the model. Inspector records of earlier replies stay, with this text shown as redacted.`}
          confirmLabel="Delete"
          busy={remove.isPending}
          error={remove.error ? remove.error.message : null}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirmDelete(false)}
          testId="fact-delete-dialog"
        />
      ) : null}
    </li>
  );
}

const EVENT_TONES: Record<FactEvent['event'], 'neutral' | 'accent' | 'good' | 'warn' | 'danger'> = {
  ADD: 'good',
  UPDATE: 'warn',
  DELETE: 'danger',
  NONE: 'neutral',
  EDIT: 'accent',
};

function FactHistory({ factId }: { factId: string }) {
  const query = useQuery({ queryKey: memoryKeys.fact(factId), queryFn: () => api.getFact(factId), staleTime: 0 });
  if (query.isPending) return <Skeleton lines={2} />;
  if (query.isError) return <p className="mt-2 text-xs text-danger">Could not load the history: {query.error.message}</p>;
  const history = query.data.history;
  return (
    <ol className="mt-2 space-y-1.5 border-t border-line pt-2" data-testid="fact-history">
      {history.length === 0 ? <li className="text-xs text-muted">No events recorded.</li> : null}
      {history.map((event, index) => (
        <li key={event.id ?? index} data-testid="fact-event" data-event={event.event} className="text-xs">
          <div className="flex flex-wrap items-center gap-1.5">
            <Badge tone={EVENT_TONES[event.event] ?? 'neutral'}>{event.event}</Badge>
            <span className="text-muted">by {describeActor(event.actor)}</span>
            <span className="ml-auto text-faint">{formatDateTime(event.createdAt)}</span>
          </div>
          {event.oldContent || event.newContent ? (
            <p className="mt-0.5 break-words text-muted">
              {event.oldContent && event.oldContent !== event.newContent ? (
                <>
                  <del className="decoration-danger/60">{event.oldContent}</del> →{' '}
                </>
              ) : null}
              <span className="text-fg">{event.newContent}</span>
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
