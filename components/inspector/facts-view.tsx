'use client';

import Link from 'next/link';
import { useState } from 'react';
import { memoryKeys } from '../api';
import type { PageFact as Fact } from '../api-types';
import { MoreFacts, useFactPages } from '../fact-pages';
import { HistoryIcon, PencilIcon, RefreshIcon, TrashIcon } from '../icons';
import { DismissibleNotice, FactHistory, FactItem, useFactEdits } from '../memory-edits';
import { Badge, Notice } from '../ui/badge';
import { formatDate, formatDateTime, plural } from '../ui/format';
import { Skeleton } from '../ui/loading';
import { Section } from '../ui/section';
import { SourceLinks } from './source-links';

/** What memlens knows about the user across conversations, by slot: edit, delete, and each fact's history. */
export function FactsSection({ conversationId, onReveal }: { conversationId: string; onReveal: () => void }) {
  const [showAll, setShowAll] = useState(false);
  const [deleted, setDeleted] = useState<string | null>(null);
  const scope = showAll ? 'all' : 'active';
  const { query, facts, total } = useFactPages(memoryKeys.facts(scope), { status: showAll ? undefined : 'active' });
  const groups = groupBySlot(facts);

  return (
    <Section testId="facts" title="Facts about you" meta={query.data ? (showAll ? plural(total, 'fact') : `${total} active`) : undefined}>
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
          <DismissibleNotice testId="fact-delete-result" onDismiss={() => setDeleted(null)}>
            {deleted}
          </DismissibleNotice>
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
                    onDeleted={setDeleted}
                  />
                ))}
              </ul>
            </div>
          ))}
          <MoreFacts pages={query} loaded={facts.length} total={total} />
        </div>
      )}
    </Section>
  );
}

/** Items under their first kind: a statement read as several kinds is listed once, its other kinds beside it. */
function groupBySlot(facts: Fact[]): Array<[string, Fact[]]> {
  const groups = new Map<string, Fact[]>();
  for (const fact of facts) {
    const slot = fact.kinds[0] ?? fact.slot;
    groups.set(slot, [...(groups.get(slot) ?? []), fact]);
  }
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
  onDeleted: (message: string) => void;
}) {
  const edits = useFactEdits(fact, onDeleted);
  const [showHistory, setShowHistory] = useState(false);
  const active = fact.status === 'active';

  return (
    <FactItem
      fact={fact}
      edits={edits}
      place="inspector"
      badges={
        active && fact.kinds.length < 2 ? null : (
          <span className="flex shrink-0 flex-wrap justify-end gap-1">
            {fact.kinds.slice(1).map((kind) => (
              <Badge key={kind} title="Also of this kind" testId="fact-also-kind">
                <span className="font-mono">+{kind}</span>
              </Badge>
            ))}
            {active ? null : (
              <Badge tone={fact.status === 'deleted' ? 'danger' : 'warn'} testId="fact-status">
                {fact.status}
              </Badge>
            )}
          </span>
        )
      }
    >
      <div className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-[11px] text-muted">
        <span title={formatDateTime(fact.validFrom)}>since {formatDate(fact.validFrom)}</span>
        {fact.validTo ? (
          <span title={formatDateTime(fact.validTo)} data-testid="fact-valid-to">
            until {formatDate(fact.validTo)}
          </span>
        ) : null}
        <span>·</span>
        {fact.conversationId === conversationId ? (
          <span>this chat</span>
        ) : fact.conversationId ? (
          <Link href={`/c/${fact.conversationId}`} className="text-accent hover:underline">
            another chat
          </Link>
        ) : (
          <span>no conversation</span>
        )}
        <SourceLinks ids={fact.sourceMessageIds} onReveal={onReveal} />
      </div>

      {!edits.editing ? (
        <div className="mt-2 flex items-center gap-1">
          {active ? (
            <button
              type="button"
              data-testid="fact-edit"
              onClick={edits.startEditing}
              className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-muted hover:bg-subtle hover:text-fg"
            >
              <PencilIcon width={12} height={12} /> Edit
            </button>
          ) : null}
          <button
            type="button"
            data-testid="fact-delete"
            onClick={() => {
              onDeleting();
              edits.askDelete();
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

      {showHistory ? <FactHistory factId={fact.id} place="inspector" /> : null}
    </FactItem>
  );
}
