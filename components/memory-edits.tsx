'use client';

import { type InfiniteData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useRef, useState } from 'react';
import { api, memoryKeys } from './api';
import type { Fact, FactEvent, FactPage } from './api-types';
import { ConfirmDialog } from './confirm-dialog';
import { describeActorWithReason, reasonInWords } from './describe-actor';
import { withoutFact } from './fact-pages';
import { useAfterMemoryChange } from './memory-changed';
import { kindLabel } from './memory-page/types';
import { Badge, Notice } from './ui/badge';
import { formatDateTime, plural } from './ui/format';
import { Skeleton } from './ui/loading';
import { VisibleText } from './visible-text';

// Correcting memory, as both the inspector's Memory tab (inspector/facts-view.tsx) and the Memory page
// (memory-page/) offer it. `place` picks each one's wording, look and test ids: the inspector's ids
// start with "fact", the page's with "memory-fact".

type FactPlace = 'inspector' | 'page';
const TEST_ID_PREFIX: Record<FactPlace, string> = { inspector: 'fact', page: 'memory-fact' };

/** What deleting a fact or a remembered exchange did, as the server counted it. */
export function describeForgetting(result: { messagesMarked: number; recordsRedacted: number }): string {
  return `Forgotten. ${plural(result.messagesMarked, 'message')} marked, ${plural(result.recordsRedacted, 'inspector record')} redacted.`;
}

/** What an action did, in a notice with a Dismiss button. */
export function DismissibleNotice({ testId, onDismiss, children }: { testId: string; onDismiss: () => void; children: ReactNode }) {
  return (
    <Notice testId={testId}>
      <span role="status" className="flex items-start gap-2">
        <span className="min-w-0 flex-1">{children}</span>
        <button type="button" onClick={onDismiss} className="text-xs underline hover:text-fg">
          Dismiss
        </button>
      </span>
    </Notice>
  );
}

/** What the last action on a list did, until dismissed. `say` moves the focus to it: the row that had the focus may be gone. */
export function useActionNotice() {
  const [text, setText] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  return {
    text,
    ref,
    say: (next: string) => {
      setText(next);
      requestAnimationFrame(() => ref.current?.focus());
    },
    dismiss: () => setText(null),
  };
}

/** The Memory page's notice of `useActionNotice`, above its list. */
export function ActionNotice({ notice, testId }: { notice: ReturnType<typeof useActionNotice>; testId: string }) {
  if (!notice.text) return null;
  return (
    <div ref={notice.ref} tabIndex={-1} className="mt-3 outline-none">
      <DismissibleNotice testId={testId} onDismiss={notice.dismiss}>
        {notice.text}
      </DismissibleNotice>
    </div>
  );
}

/**
 * One listed fact's edit and delete: the draft, the confirmation, the two requests and what they
 * refresh. An item holds every fact its statement gave (`ids`, one per kind): both act on all of them.
 */
export function useFactEdits(fact: { id: string; ids?: string[]; content: string }, onDeleted: (message: string) => void) {
  const queryClient = useQueryClient();
  const afterMemoryChange = useAfterMemoryChange();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(fact.content);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const ids = fact.ids ?? [fact.id];

  const edit = useMutation({
    mutationFn: (content: string) => api.editFactItem(ids, content),
    onSuccess: async () => {
      setEditing(false);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: memoryKeys.factsAll }),
        ...ids.map((id) => queryClient.invalidateQueries({ queryKey: memoryKeys.fact(id) })),
      ]);
      // Earlier mentions of the old text are marked corrected in the chat.
      afterMemoryChange();
    },
  });

  const remove = useMutation({
    mutationFn: () => api.deleteFactItem(ids),
    onSuccess: (result) => {
      setConfirmingDelete(false);
      // Every fact list (the inspector's, the page's searches) sits under factsAll.
      queryClient.setQueriesData<InfiniteData<FactPage>>({ queryKey: memoryKeys.factsAll }, (data) => withoutFact(data, ids));
      for (const id of ids) queryClient.removeQueries({ queryKey: memoryKeys.fact(id) });
      // The facts, the summaries and the turn records changed on the server; the chat's messages are marked.
      afterMemoryChange();
      onDeleted(describeForgetting(result));
    },
  });

  return {
    editing,
    draft,
    setDraft,
    edit,
    remove,
    confirmingDelete,
    startEditing: () => {
      setDraft(fact.content);
      edit.reset();
      setEditing(true);
    },
    stopEditing: () => setEditing(false),
    /** Saves the draft; an empty or unchanged one just closes the form. */
    save: () => {
      const content = draft.trim();
      if (!content || content === fact.content) setEditing(false);
      else edit.mutate(content);
    },
    askDelete: () => {
      remove.reset();
      setConfirmingDelete(true);
    },
    cancelDelete: () => setConfirmingDelete(false),
  };
}

type FactEdits = ReturnType<typeof useFactEdits>;

/**
 * A fact in a list: its text (or the form that corrects it), the place's badges beside it, then the
 * place's own lines (`children`). A fact no longer current is drawn dashed.
 */
export function FactItem({
  fact,
  edits,
  place,
  badges,
  children,
}: {
  fact: Pick<Fact, 'id' | 'content' | 'status'> & { kinds?: string[] };
  edits: FactEdits;
  place: FactPlace;
  badges: ReactNode;
  children: ReactNode;
}) {
  const prefix = TEST_ID_PREFIX[place];
  const onPage = place === 'page';
  return (
    <li
      data-testid={prefix}
      data-fact-id={fact.id}
      data-status={fact.status}
      className={`rounded-lg border text-sm ${onPage ? 'p-3' : 'p-2.5'} ${fact.status === 'active' ? 'border-line bg-surface' : 'border-dashed border-line bg-subtle/50 text-muted'}`}
    >
      {edits.editing ? (
        <FactEditForm edits={edits} place={place} />
      ) : (
        <div className="flex items-start gap-2">
          <p
            className={`min-w-0 flex-1 break-words ${onPage ? 'text-[15px] leading-6 text-fg' : 'leading-5'}`}
            data-testid={`${prefix}-content`}
          >
            <VisibleText text={fact.content} />
          </p>
          {badges}
        </div>
      )}
      {children}
      <FactDeleteDialog content={fact.content} kinds={fact.kinds ?? []} edits={edits} place={place} />
    </li>
  );
}

/** The form that corrects a fact's text: Enter saves, Escape cancels. */
function FactEditForm({ edits, place }: { edits: FactEdits; place: FactPlace }) {
  const inputId = useId();
  const prefix = TEST_ID_PREFIX[place];
  const onPage = place === 'page';
  const { edit, draft } = edits;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        edits.save();
      }}
      className="space-y-2"
    >
      <label htmlFor={inputId} className={onPage ? 'text-xs font-medium text-muted' : 'sr-only'}>
        {onPage ? 'Correct this fact' : 'Fact'}
      </label>
      <input
        id={inputId}
        data-testid={`${prefix}-input`}
        value={draft}
        maxLength={2000}
        // biome-ignore lint/a11y/noAutofocus: the user just opened this field to type in it, so moving the focus there is the expected move
        autoFocus
        onChange={(event) => edits.setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            edits.stopEditing();
          }
        }}
        className={`w-full border border-accent bg-canvas py-1.5 text-sm outline-none ${onPage ? 'rounded-lg px-2.5' : 'rounded-md px-2'}`}
      />
      {edit.isError ? (
        <p className="text-xs text-danger" role="alert">
          Could not save: {edit.error.message}
        </p>
      ) : null}
      <div className="flex items-center justify-end gap-2">
        {onPage ? <span className="mr-auto text-xs text-faint">Memory reads your correction wherever the old words were said.</span> : null}
        <button type="button" onClick={edits.stopEditing} className="rounded-md px-2.5 py-1 text-xs font-medium hover:bg-subtle">
          Cancel
        </button>
        <button
          type="submit"
          data-testid={`${prefix}-save`}
          disabled={edit.isPending || draft.trim() === ''}
          className="rounded-md bg-accent px-2.5 py-1 text-xs font-medium text-on-accent hover:bg-accent-hover disabled:opacity-60"
        >
          {edit.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** "Delete this fact?", mounted only while asked: a list holds many facts and needs one such dialog at a time. */
function FactDeleteDialog({ content, kinds, edits, place }: { content: string; kinds: string[]; edits: FactEdits; place: FactPlace }) {
  if (!edits.confirmingDelete) return null;
  const { remove } = edits;
  // One statement kept as several kinds is one memory item: deleting it forgets every kind.
  const asKinds =
    kinds.length > 1 ? ` It is kept as ${kinds.length} kinds (${kinds.map(kindLabel).join(', ')}): all of them are deleted.` : '';
  return (
    <ConfirmDialog
      open
      title="Delete this fact?"
      description={`“${content}” is deleted with its history, and memlens stops recalling it: the statement is removed from the exchanges and summaries it remembers.${asKinds} Your messages stay in the chat, with the part that said it marked as forgotten and no longer sent to the model. Inspector records of earlier replies stay, with this text shown as redacted.`}
      confirmLabel="Delete"
      busy={remove.isPending}
      error={remove.error ? remove.error.message : null}
      onConfirm={() => remove.mutate()}
      onCancel={edits.cancelDelete}
      testId={`${TEST_ID_PREFIX[place]}-delete-dialog`}
    />
  );
}

const EVENT_BADGES: Record<FactEvent['event'], { label: string; tone: 'neutral' | 'accent' | 'good' | 'warn' | 'danger' }> = {
  ADD: { label: 'Added', tone: 'good' },
  UPDATE: { label: 'Replaced', tone: 'warn' },
  DELETE: { label: 'Ended', tone: 'danger' },
  NONE: { label: 'Confirmed', tone: 'neutral' },
  EDIT: { label: 'Edited', tone: 'accent' },
  MOVE: { label: 'Moved from guest', tone: 'neutral' },
};

/** A fact's recorded events, each with the text it changed. */
export function FactHistory({ factId, place }: { factId: string; place: FactPlace }) {
  const query = useQuery({ queryKey: memoryKeys.fact(factId), queryFn: () => api.getFact(factId), staleTime: 0 });
  if (query.isPending) return <Skeleton lines={2} />;
  if (query.isError) return <p className="mt-2 text-xs text-danger">Could not load the history: {query.error.message}</p>;
  const prefix = TEST_ID_PREFIX[place];
  const history = query.data.history;
  return (
    <ol className="mt-2 space-y-1.5 border-t border-line pt-2" data-testid={`${prefix}-history`}>
      {history.length === 0 ? <li className="text-xs text-muted">No events recorded.</li> : null}
      {history.map((event, index) => {
        const badge = EVENT_BADGES[event.event] ?? { label: event.event, tone: 'neutral' };
        return (
          <li key={event.id ?? index} data-testid={`${prefix}-event`} data-event={event.event} className="text-xs">
            <div className="flex flex-wrap items-center gap-1.5">
              {/* The inspector shows the event as stored (ADD, UPDATE…); the Memory page says it in words. */}
              <Badge tone={badge.tone}>{place === 'inspector' ? event.event : badge.label}</Badge>
              <span className="text-muted">by {describeActorWithReason(event.actor, event.reason)}</span>
              <span className="ml-auto text-faint">{formatDateTime(event.createdAt)}</span>
            </div>
            {event.oldContent || event.newContent ? (
              <p className="mt-0.5 break-words text-muted">
                {event.oldContent && event.oldContent !== event.newContent ? (
                  <>
                    <del className="decoration-danger/60">{event.oldContent}</del> →{' '}
                  </>
                ) : null}
                {/* An ending's text is its reason. */}
                <span className="text-fg">
                  {event.event === 'DELETE' && event.newContent ? reasonInWords(event.newContent) : event.newContent}
                </span>
              </p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
