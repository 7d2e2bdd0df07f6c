'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { AccountMenu, StaffConsoleLink } from './account-menu';
import { api, conversationsKey } from './api';
import { ConfirmDialog } from './confirm-dialog';
import { CloseIcon, LensIcon, PencilIcon, PlusIcon, TrashIcon, UploadIcon } from './icons';
import type { ConversationSummary, ModelInfo } from './types';

/** The conversation list: newest first, with new, rename (inline) and delete (confirmed). */
export function Sidebar({
  initialConversations,
  model,
  onClose,
}: {
  initialConversations: ConversationSummary[];
  model: ModelInfo;
  onClose: () => void;
}) {
  const router = useRouter();
  const params = useParams<{ id?: string }>();
  const activeId = typeof params?.id === 'string' ? params.id : undefined;
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);

  const { data: conversations = [] } = useQuery({
    queryKey: conversationsKey,
    queryFn: api.listConversations,
    initialData: initialConversations,
    initialDataUpdatedAt: 0,
  });

  const create = useMutation({
    mutationFn: () => api.createConversation(),
    onSuccess: (conversation) => {
      setError(null);
      queryClient.setQueryData<ConversationSummary[]>(conversationsKey, (list = []) => [conversation, ...list]);
      void queryClient.invalidateQueries({ queryKey: conversationsKey });
      router.push(`/c/${conversation.id}`);
    },
    onError: (e) => setError(e.message),
  });

  return (
    <nav aria-label="Conversations" className="flex h-full flex-col border-r border-line bg-surface">
      <div className="flex items-center justify-between gap-2 px-4 pt-4 pb-3">
        <Link href="/" className="flex items-center gap-2 rounded-md text-[15px] font-semibold tracking-tight">
          <span className="grid size-7 place-items-center rounded-lg bg-accent text-on-accent">
            <LensIcon width={16} height={16} />
          </span>
          memlens
        </Link>
        <button
          type="button"
          onClick={onClose}
          className="rounded-md p-1.5 text-muted hover:bg-subtle md:hidden"
          aria-label="Close sidebar"
        >
          <CloseIcon />
        </button>
      </div>

      <div className="px-3 pb-2">
        <button
          type="button"
          data-testid="new-conversation"
          onClick={() => create.mutate()}
          disabled={create.isPending}
          className="flex w-full items-center justify-center gap-2 rounded-lg border border-line bg-surface px-3 py-2 text-sm font-medium shadow-xs hover:bg-subtle disabled:opacity-60"
        >
          <PlusIcon />
          {create.isPending ? 'Creating…' : 'New conversation'}
        </button>
        <Link
          href="/import"
          data-testid="import-link"
          className="mt-1.5 flex w-full items-center justify-center gap-2 rounded-lg px-3 py-1.5 text-sm text-muted hover:bg-subtle hover:text-fg"
        >
          <UploadIcon />
          Import a conversation
        </Link>
        {error ? (
          <p role="alert" className="mt-2 rounded-md bg-danger-soft px-2.5 py-1.5 text-xs text-danger">
            {error}
          </p>
        ) : null}
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
        {conversations.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-faint">No conversations yet.</p>
        ) : (
          <>
            <h2 className="px-3 pt-2 pb-1 text-xs font-medium tracking-wide text-faint uppercase">Recent</h2>
            <ul className="space-y-0.5" data-testid="conversation-list">
              {conversations.map((conversation) => (
                <ConversationItem
                  key={conversation.id}
                  conversation={conversation}
                  active={conversation.id === activeId}
                  onError={setError}
                />
              ))}
            </ul>
          </>
        )}
      </div>

      <div className="space-y-2 border-t border-line px-4 py-3 text-xs text-muted">
        <StaffConsoleLink />
        <div className="flex items-center justify-between gap-2">
          <AccountMenu />
        </div>
        <div className="truncate" title={model.chat}>
          Model: <span className="font-mono text-fg">{model.chat}</span>
        </div>
      </div>
    </nav>
  );
}

function ConversationItem({
  conversation,
  active,
  onError,
}: {
  conversation: ConversationSummary;
  active: boolean;
  onError: (message: string | null) => void;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(conversation.title);
  const [confirming, setConfirming] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // Enter, Escape and blur can all end one edit; only the first one counts.
  const finishedRef = useRef(false);

  useEffect(() => {
    if (editing) inputRef.current?.select();
  }, [editing]);

  const rename = useMutation({
    mutationFn: (title: string) => api.renameConversation(conversation.id, title),
    onMutate: (title) => {
      queryClient.setQueryData<ConversationSummary[]>(conversationsKey, (list = []) =>
        list.map((c) => (c.id === conversation.id ? { ...c, title } : c)),
      );
    },
    onSuccess: () => onError(null),
    onError: (e) => onError(`Could not rename: ${e.message}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationsKey }),
  });

  const remove = useMutation({
    mutationFn: () => api.deleteConversation(conversation.id),
    onSuccess: () => {
      setConfirming(false);
      onError(null);
      queryClient.setQueryData<ConversationSummary[]>(conversationsKey, (list = []) => list.filter((c) => c.id !== conversation.id));
      void queryClient.invalidateQueries({ queryKey: conversationsKey });
      if (active) {
        router.push('/');
        router.refresh();
      }
    },
  });

  const startEditing = () => {
    finishedRef.current = false;
    setDraft(conversation.title);
    setEditing(true);
  };

  const cancel = () => {
    finishedRef.current = true;
    setDraft(conversation.title);
    setEditing(false);
  };

  const commit = () => {
    if (finishedRef.current) return;
    finishedRef.current = true;
    const title = draft.trim();
    setEditing(false);
    if (!title || title === conversation.title) {
      setDraft(conversation.title);
      return;
    }
    rename.mutate(title.slice(0, 200));
  };

  if (editing) {
    return (
      <li>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            commit();
          }}
          className="px-1 py-0.5"
        >
          <label className="sr-only" htmlFor={`rename-${conversation.id}`}>
            Conversation title
          </label>
          <input
            id={`rename-${conversation.id}`}
            ref={inputRef}
            data-testid="rename-input"
            value={draft}
            maxLength={200}
            onChange={(event) => setDraft(event.target.value)}
            onBlur={commit}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                cancel();
              }
            }}
            className="w-full rounded-md border border-accent bg-surface px-2.5 py-1.5 text-sm outline-none"
          />
        </form>
      </li>
    );
  }

  return (
    <li className="group relative" data-testid="conversation-item" data-conversation-id={conversation.id} data-active={active}>
      <Link
        href={`/c/${conversation.id}`}
        aria-current={active ? 'page' : undefined}
        className={`block rounded-lg py-2 pr-16 pl-3 text-sm ${
          active ? 'bg-accent-soft font-medium text-fg' : 'text-muted hover:bg-subtle hover:text-fg'
        }`}
        title={conversation.title}
      >
        <span className="block truncate">{conversation.title}</span>
        <span className="block text-[11px] font-normal text-faint" suppressHydrationWarning>
          {relativeTime(conversation.updatedAt)}
        </span>
      </Link>
      <div
        className={`absolute inset-y-0 right-1.5 flex items-center gap-0.5 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 [@media(hover:none)]:opacity-100 ${
          active ? 'opacity-100' : ''
        }`}
      >
        <button
          type="button"
          onClick={startEditing}
          className="rounded-md p-1.5 text-faint hover:bg-surface hover:text-fg"
          aria-label={`Rename “${conversation.title}”`}
          data-testid="rename-conversation"
        >
          <PencilIcon width={14} height={14} />
        </button>
        <button
          type="button"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
          className="rounded-md p-1.5 text-faint hover:bg-surface hover:text-danger"
          aria-label={`Delete “${conversation.title}”`}
          data-testid="delete-conversation"
        >
          <TrashIcon width={14} height={14} />
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Delete this conversation?"
        description={`“${conversation.title}” and all of its messages will be deleted. This cannot be undone.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        error={remove.error ? remove.error.message : null}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(false)}
        testId="delete-dialog"
      />
    </li>
  );
}

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
const formatter = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

function relativeTime(iso: string): string {
  const seconds = (new Date(iso).getTime() - Date.now()) / 1000;
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return formatter.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}
