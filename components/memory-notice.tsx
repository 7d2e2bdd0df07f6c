'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, memoryKeys } from './api';
import type { MemoryChange } from './api-types';
import { MemoryIcon } from './icons';
import { useUndoChange } from './memory-changed';

/** How often, and for how long at most, the notice asks again while the turn's memory work runs. */
const POLL_MS = 1500;
const POLL_FOR_MS = 60_000;

const quoted = (text: string) => `“${text}”`;

/** One change in plain words; a forgotten thing is never named. */
function inWords(change: MemoryChange): string {
  if (change.kind === 'forgotten') return 'forgot one thing, as you asked';
  if (change.kind === 'replaced')
    return change.text
      ? `${quoted(change.text)} replaced ${change.previousText ? quoted(change.previousText) : 'an older fact'}`
      : 'replaced a fact';
  return change.text ? `learned ${quoted(change.text)}` : 'learned a fact';
}

/** Scrolls to a message of the chat and flashes it. */
function showMessage(id: string) {
  const element = document.getElementById(`message-${id}`);
  if (!element) return;
  element.scrollIntoView({ behavior: 'smooth', block: 'center' });
  element.dataset.flash = 'true';
  setTimeout(() => delete element.dataset.flash, 1600);
}

/**
 * "Memory updated" under a reply whose turn learned a fact, replaced an older one or did a request
 * to forget: from which message, and Undo for each change. Asks again while the turn's memory work
 * is still running (at most a minute).
 */
export function MemoryNotice({ replyId }: { replyId: string }) {
  const [since] = useState(() => Date.now());
  const query = useQuery({
    queryKey: memoryKeys.replyChanges(replyId),
    queryFn: () => api.memoryChanges(replyId),
    retry: false,
    refetchInterval: (q) =>
      q.state.status !== 'error' && q.state.data?.pending !== false && Date.now() - since < POLL_FOR_MS ? POLL_MS : false,
  });
  const undo = useUndoChange();
  const changes = query.data?.changes ?? [];
  const source = query.data?.source;
  if (changes.length === 0) return query.data?.pending === false && source ? <NothingLearned excerpt={source.excerpt} /> : null;
  return (
    <div data-testid="memory-notice" className="mt-2 flex items-start gap-1.5 text-xs leading-5 text-muted">
      <MemoryIcon width={14} height={14} className="mt-0.5 shrink-0 text-accent" aria-hidden="true" />
      <p className="min-w-0">
        <span className="font-medium text-fg">Memory updated:</span>{' '}
        {changes.map((change, i) => (
          <span key={change.undo?.id ?? `${change.kind}:${i}`} data-testid="memory-change" data-kind={change.kind}>
            {i > 0 ? ' · ' : null}
            <span className={change.undone ? 'line-through' : undefined}>{inWords(change)}</span>
            {change.undone ? (
              <span data-testid="memory-change-undone"> (undone)</span>
            ) : change.undo ? (
              <button
                type="button"
                data-testid="memory-change-undo"
                disabled={undo.isPending}
                onClick={() => undo.mutate(change.undo!.id)}
                className="ml-1 rounded px-1 font-medium text-accent hover:bg-accent-soft disabled:opacity-60"
              >
                Undo
              </button>
            ) : null}
          </span>
        ))}
        {source ? (
          <>
            {' — from your message '}
            <a
              href={`#message-${source.id}`}
              data-testid="memory-notice-source"
              onClick={(event) => {
                event.preventDefault();
                showMessage(source.id);
              }}
              className="break-words text-accent underline underline-offset-2 hover:decoration-2"
            >
              {source.excerpt ? quoted(source.excerpt) : 'above'}
            </a>
          </>
        ) : null}
        {undo.error ? (
          <span role="alert" className="block text-danger">
            {undo.error.message}
          </span>
        ) : null}
      </p>
    </div>
  );
}

/**
 * Under a reply whose turn learned no fact: the message is kept as an exchange (recall can still bring it
 * back), and the user can say what memory should know from it as a fact of its own.
 */
function NothingLearned({ excerpt }: { excerpt: string }) {
  const client = useQueryClient();
  const inputId = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (content: string) => api.addFact(content),
    onSuccess: () => client.invalidateQueries({ queryKey: memoryKeys.all }),
  });
  if (add.data)
    return (
      <p data-testid="memory-kept" data-state="added" className="mt-2 text-xs leading-5 text-muted">
        <span className="font-medium text-fg">Memory:</span> added {quoted(add.data.fact.content)} as a fact.
      </p>
    );
  return (
    <div data-testid="memory-kept" className="mt-2 text-xs leading-5 text-muted">
      <span className="font-medium text-fg">Memory:</span> no fact learned; kept as an exchange.
      {draft === null ? (
        <button
          type="button"
          data-testid="memory-kept-add"
          // Cut short for the notice, the message is no draft: the user writes the fact.
          onClick={() => setDraft(excerpt.endsWith('…') ? '' : excerpt)}
          className="ml-1 rounded px-1 font-medium text-accent hover:bg-accent-soft"
        >
          Add a fact
        </button>
      ) : (
        <form
          className="mt-1 flex flex-wrap items-center gap-1.5"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim()) add.mutate(draft.trim());
          }}
        >
          <label className="sr-only" htmlFor={inputId}>
            The fact memory should keep
          </label>
          <input
            id={inputId}
            data-testid="memory-kept-input"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            className="min-w-0 flex-1 rounded-md border border-line bg-surface px-2 py-1 text-fg"
          />
          <button
            type="submit"
            data-testid="memory-kept-save"
            disabled={add.isPending || !draft.trim()}
            className="rounded-md bg-accent px-2 py-1 font-medium text-on-accent hover:bg-accent-hover disabled:opacity-60"
          >
            Save fact
          </button>
          <button type="button" onClick={() => setDraft(null)} className="rounded px-1 text-muted hover:text-fg">
            Cancel
          </button>
        </form>
      )}
      {add.error ? (
        <span role="alert" className="block text-danger">
          {add.error.message}
        </span>
      ) : null}
    </div>
  );
}
