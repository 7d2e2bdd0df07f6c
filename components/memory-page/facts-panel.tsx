'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { api, memoryKeys } from '../api';
import type { FactKind, PageFact } from '../api-types';
import { MoreFacts, useFactPages } from '../fact-pages';
import { ApiError } from '../http';
import { HistoryIcon, PencilIcon, PlusIcon, QuoteIcon, TrashIcon } from '../icons';
import { useAfterMemoryChange } from '../memory-changed';
import { ActionNotice, FactHistory, FactItem, useActionNotice, useFactEdits } from '../memory-edits';
import { Badge } from '../ui/badge';
import { formatDate, formatDateTime, formatRelative, plural } from '../ui/format';
import { SearchField, SearchResults, useDebounced } from '../ui/search';
import { buttons } from '../ui/styles';
import { messageHref, Panel } from './panel';
import { FACT_KINDS, kindLabel } from './types';
import { SentWith } from './usage';

/** Facts about the user: search, add by hand, edit, delete, each one's history, sources and use. */
export function FactsPanel() {
  const [search, setSearch] = useState('');
  const [showEnded, setShowEnded] = useState(false);
  const [adding, setAdding] = useState(false);
  const notice = useActionNotice();
  const q = useDebounced(search.trim());
  const scope = showEnded ? 'all' : 'active';
  const { query, facts, total } = useFactPages(memoryKeys.pageFacts(scope, q), { q, status: showEnded ? undefined : 'active' });
  const searching = q !== '';

  return (
    <Panel
      id="facts"
      title="Facts about you"
      meta={query.data && !searching ? <span data-testid="facts-count">{plural(total, showEnded ? 'fact' : 'current fact')}</span> : null}
      description="What memlens has learned about you across all your conversations, and adds to every reply where it helps. Correct it here: an edit or a deletion also reaches the exchanges and summaries it remembers."
      actions={
        <button
          type="button"
          data-testid="fact-add-toggle"
          aria-expanded={adding}
          onClick={() => setAdding((value) => !value)}
          className={adding ? buttons.secondary : buttons.primary}
        >
          <PlusIcon width={14} height={14} />
          Add a fact
        </button>
      }
    >
      {adding ? (
        <AddFactForm
          onDone={(text) => {
            setAdding(false);
            notice.say(text);
          }}
          onCancel={() => setAdding(false)}
        />
      ) : null}

      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <SearchField
          label="Search facts"
          value={search}
          onChange={setSearch}
          placeholder="Search facts (any language)"
          testId="fact-search"
        />
        <label className="inline-flex items-center gap-2 text-sm text-muted">
          <input
            type="checkbox"
            data-testid="facts-show-ended"
            checked={showEnded}
            onChange={(event) => setShowEnded(event.target.checked)}
            className="size-4 accent-[var(--color-accent)]"
          />
          Include replaced and ended
        </label>
      </div>

      <ActionNotice notice={notice} testId="fact-notice" />

      <SearchResults
        query={query}
        // An error loading a further page shows below the pages already there.
        error={facts.length === 0 ? query.error : null}
        what="your facts"
        isEmpty={facts.length === 0}
        emptyText={
          searching
            ? `No fact contains “${q}”.`
            : 'No facts yet. Tell memlens about yourself in a conversation (your name, where you live, what you like), or add a fact here.'
        }
        foundText={searching ? `${plural(total, 'fact')} containing “${q}”` : null}
        testIds={{ empty: 'facts-empty', found: 'facts-found' }}
      >
        <ul className="space-y-2.5" data-testid="fact-list">
          {facts.map((fact) => (
            <FactCard key={fact.id} fact={fact} onDeleted={notice.say} />
          ))}
        </ul>
        <MoreFacts pages={query} loaded={facts.length} total={total} />
      </SearchResults>
    </Panel>
  );
}

function AddFactForm({ onDone, onCancel }: { onDone: (message: string) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const afterMemoryChange = useAfterMemoryChange();
  const [content, setContent] = useState('');
  const [kind, setKind] = useState<FactKind>('statement');
  const contentId = useId();
  const kindId = useId();
  const add = useMutation({
    mutationFn: () => api.addFact(content.trim(), kind),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: memoryKeys.factsAll });
      afterMemoryChange();
      onDone(
        result.replaced
          ? `Added. It replaces your earlier ${kindLabel(kind).toLowerCase()}, which stays in its history.`
          : 'Added. memlens recalls it from your next message on.',
      );
    },
  });

  return (
    <form
      data-testid="fact-add-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (content.trim()) add.mutate();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !add.isPending) {
          event.preventDefault();
          onCancel();
        }
      }}
      className="mb-4 rounded-lg border border-accent/30 bg-accent-soft/40 p-3"
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor={contentId} className="mb-1 block text-xs font-medium text-muted">
            The fact, in your words
          </label>
          <input
            id={contentId}
            data-testid="fact-add-input"
            value={content}
            onChange={(event) => setContent(event.target.value)}
            maxLength={2000}
            // biome-ignore lint/a11y/noAutofocus: the user just opened this field to type in it, so moving the focus there is the expected move
            autoFocus
            placeholder="e.g. I am allergic to peanuts"
            className="w-full rounded-lg border border-line bg-surface px-2.5 py-2 text-sm placeholder:text-faint focus:border-accent focus:outline-none"
          />
        </div>
        <div className="sm:w-44">
          <label htmlFor={kindId} className="mb-1 block text-xs font-medium text-muted">
            Kind
          </label>
          <select
            id={kindId}
            data-testid="fact-add-kind"
            value={kind}
            onChange={(event) => setKind(event.target.value as FactKind)}
            className="w-full rounded-lg border border-line bg-surface px-2 py-2 text-sm focus:border-accent focus:outline-none"
          >
            {FACT_KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {add.isError ? (
        <p role="alert" className="mt-2 text-sm text-danger" data-testid="fact-add-error">
          {add.error instanceof ApiError && add.error.status === 409
            ? 'memlens already keeps this fact.'
            : `Could not add it: ${add.error.message}`}
        </p>
      ) : null}
      <div className="mt-3 flex items-center justify-end gap-2">
        <span className="mr-auto hidden text-xs text-faint sm:inline">
          Name, home, work and diet hold one at a time: a new one replaces the old.
        </span>
        <button
          type="button"
          onClick={onCancel}
          disabled={add.isPending}
          className="rounded-lg px-3 py-1.5 text-sm font-medium hover:bg-subtle"
        >
          Cancel
        </button>
        <button type="submit" data-testid="fact-add-save" disabled={add.isPending || content.trim() === ''} className={buttons.primary}>
          {add.isPending ? 'Adding…' : 'Add fact'}
        </button>
      </div>
    </form>
  );
}

function FactCard({ fact, onDeleted }: { fact: PageFact; onDeleted: (message: string) => void }) {
  const edits = useFactEdits(fact, onDeleted);
  const [showHistory, setShowHistory] = useState(false);
  const [showUses, setShowUses] = useState(false);
  const usesId = useId();
  const active = fact.status === 'active';

  return (
    <FactItem
      fact={fact}
      edits={edits}
      place="page"
      badges={
        <div className="flex shrink-0 flex-wrap justify-end gap-1">
          {!active ? (
            <Badge tone={fact.status === 'deleted' ? 'danger' : 'warn'} testId="memory-fact-status">
              {fact.status === 'superseded' ? 'replaced' : 'ended'}
            </Badge>
          ) : null}
          {/* One statement is one item: each kind it was read as is a badge. */}
          {fact.kinds.map((kind) => (
            <Badge key={kind} title="Kind of fact" testId="memory-fact-kind">
              {kindLabel(kind)}
            </Badge>
          ))}
        </div>
      }
    >
      <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
        <span title={formatDateTime(fact.validFrom)}>
          {active ? 'since' : 'from'} {formatDate(fact.validFrom)}
          {fact.validTo ? <> until {formatDate(fact.validTo)}</> : null}
        </span>
        <Sources fact={fact} />
      </div>

      {!edits.editing ? (
        <div className="mt-2 flex flex-wrap items-center gap-1 border-t border-line pt-2">
          <span className="text-xs text-muted">
            <SentWith usage={fact.usedIn} testId="memory-fact-sent" />
          </span>
          <button
            type="button"
            data-testid="memory-fact-uses"
            aria-expanded={showUses}
            aria-controls={usesId}
            disabled={fact.usedIn.count === 0}
            onClick={() => setShowUses((value) => !value)}
            className={`${buttons.quiet} disabled:pointer-events-none disabled:text-faint`}
            title={fact.usedIn.count === 0 ? 'No reply has cited this fact yet' : 'Show the replies that cited this fact'}
          >
            <QuoteIcon width={12} height={12} />
            {fact.usedIn.count === 0 ? 'Never cited' : `Cited in ${plural(fact.usedIn.count, 'reply', 'replies')}`}
          </button>
          <span className="ml-auto flex items-center gap-1">
            {active ? (
              <button type="button" data-testid="memory-fact-edit" onClick={edits.startEditing} className={buttons.quiet}>
                <PencilIcon width={12} height={12} /> Edit
              </button>
            ) : null}
            <button
              type="button"
              data-testid="memory-fact-history-toggle"
              aria-expanded={showHistory}
              onClick={() => setShowHistory((value) => !value)}
              className={buttons.quiet}
            >
              <HistoryIcon width={12} height={12} /> History
            </button>
            <button type="button" data-testid="memory-fact-delete" onClick={edits.askDelete} className={buttons.quietDanger}>
              <TrashIcon width={12} height={12} /> Delete
            </button>
          </span>
        </div>
      ) : null}

      {showUses && fact.usedIn.count > 0 ? (
        <ul id={usesId} className="mt-2 space-y-1 border-t border-line pt-2" data-testid="memory-fact-replies">
          {fact.usedIn.replies.map((reply) => (
            <li key={reply.messageId} className="flex flex-wrap items-baseline gap-x-2 text-xs">
              <Link
                href={messageHref(reply.conversationId, reply.messageId)}
                className="font-medium text-accent hover:underline"
                data-testid="memory-fact-reply"
              >
                Reply in “{reply.conversationTitle}”
              </Link>
              <time className="text-faint" dateTime={reply.createdAt} title={formatDateTime(reply.createdAt)}>
                {formatRelative(reply.createdAt)}
              </time>
            </li>
          ))}
          {fact.usedIn.count > fact.usedIn.replies.length ? (
            <li className="text-xs text-faint">
              and {plural(fact.usedIn.count - fact.usedIn.replies.length, 'earlier reply', 'earlier replies')}
            </li>
          ) : null}
        </ul>
      ) : null}

      {showHistory ? <FactHistory factId={fact.id} place="page" /> : null}
    </FactItem>
  );
}

/** Where the fact came from: links that open each message in its conversation. */
function Sources({ fact }: { fact: PageFact }) {
  if (fact.sources.length === 0) {
    return <span data-testid="memory-fact-sources">{fact.status === 'active' ? 'added by you' : 'no source message'}</span>;
  }
  return (
    <span className="inline-flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-1" data-testid="memory-fact-sources">
      <span>from</span>
      {fact.sources.map((source) =>
        source.conversationId ? (
          <Link
            key={source.messageId}
            href={messageHref(source.conversationId, source.messageId)}
            data-testid="memory-fact-source"
            data-message-id={source.messageId}
            className="min-w-0 max-w-full truncate rounded text-accent hover:underline"
            title={`Open this ${source.role === 'assistant' ? 'reply' : 'message'} in “${source.conversationTitle ?? 'its conversation'}”`}
          >
            {source.excerpt ? `“${source.excerpt}”` : source.role === 'assistant' ? 'a reply' : 'your message'}
            <span className="text-muted"> in “{source.conversationTitle}”</span>
          </Link>
        ) : null,
      )}
    </span>
  );
}
