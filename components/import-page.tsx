'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { api, conversationsKey, importsKey } from './api';
import { ChatHeader } from './chat-header';
import { UploadIcon } from './icons';
import { Panel } from './memory-page/panel';
import type { ImportView, ModelInfo } from './types';
import { Badge, Notice } from './ui/badge';
import { formatDateTime, plural } from './ui/format';

const POLL_MS = 750;
const isActive = (view: ImportView | undefined) => view?.status === 'pending' || view?.status === 'running';

/** /import: send a conversation as a JSON file, follow its import until it is done, then open it. */
export function ImportPage({ model }: { model: ModelInfo }) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(null);
  const imports = useQuery({ queryKey: importsKey, queryFn: api.listImports });
  // The import to follow: the one just sent, else one still running from before (another tab, a reload).
  const followedId = chosen ?? imports.data?.find(isActive)?.id ?? null;
  const followed = useQuery({
    queryKey: [...importsKey, followedId],
    queryFn: () => api.getImport(followedId!),
    enabled: followedId !== null,
    refetchInterval: (query) => (isActive(query.state.data) ? POLL_MS : false),
  });

  const finished = followed.data && !isActive(followed.data) ? followed.data.status : null;
  useEffect(() => {
    if (!finished) return;
    // The conversation joins the sidebar once its import is done.
    void queryClient.invalidateQueries({ queryKey: conversationsKey });
    void queryClient.invalidateQueries({ queryKey: importsKey, exact: true });
  }, [finished, queryClient]);

  return (
    <>
      <ChatHeader title="Import" model={model.chat} offline={model.offline} />
      <div className="min-h-0 flex-1 overflow-y-auto" data-testid="import-page">
        <div className="mx-auto w-full max-w-3xl space-y-5 px-4 py-6 sm:px-6">
          <div>
            <h2 className="text-xl font-semibold tracking-tight sm:text-2xl">Import a conversation</h2>
            <p className="mt-2 text-[15px] leading-7 text-muted">
              Bring in a conversation you had elsewhere, with its replies as they were: memlens stores it and remembers it as if you had
              chatted it here (its exchanges, the facts you stated, a summary). Nothing is generated.
            </p>
          </div>
          <Panel
            id="import-send"
            title="Send a file"
            description={
              <>
                A JSON file:{' '}
                <code className="font-mono text-xs">{'{ "title": "…", "messages": [{ "role": "user", "content": "…" }, …] }'}</code>, or
                just the array of messages (roles <code className="font-mono text-xs">user</code> and{' '}
                <code className="font-mono text-xs">assistant</code>, up to 5,000 messages).
              </>
            }
          >
            <ImportForm
              busy={isActive(followed.data)}
              onQueued={(view) => {
                queryClient.setQueryData([...importsKey, view.id], view);
                setChosen(view.id);
              }}
            />
          </Panel>
          {followed.data ? <ImportProgress view={followed.data} /> : null}
          <PastImports imports={(imports.data ?? []).filter((view) => view.id !== followedId)} />
        </div>
      </div>
    </>
  );
}

/** The file, an optional title, and the button; the server's answer (a bad field, an import in progress) shown as it says it. */
function ImportForm({ busy, onQueued }: { busy: boolean; onQueued: (view: ImportView) => void }) {
  const fileId = useId();
  const titleId = useId();
  const [body, setBody] = useState<Record<string, unknown> | null>(null);
  const [title, setTitle] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => api.startImport(title.trim() ? { ...body, title: title.trim() } : body),
    onSuccess: (view) => {
      setProblem(null);
      onQueued(view);
    },
    onError: (error) => setProblem(error.message),
  });

  const read = async (file: File | undefined) => {
    setBody(null);
    setProblem(null);
    if (!file) return;
    try {
      const parsed: unknown = JSON.parse(await file.text());
      const asBody = Array.isArray(parsed) ? { messages: parsed } : (parsed as Record<string, unknown>);
      setBody(asBody);
      if (typeof asBody?.title === 'string') setTitle(asBody.title);
    } catch (error) {
      setProblem(`${file.name} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (body) start.mutate();
  };

  return (
    <form onSubmit={submit} className="space-y-3" data-testid="import-form">
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={fileId} className="mb-1 block text-xs font-medium text-muted">
            Conversation file (JSON)
          </label>
          <input
            id={fileId}
            type="file"
            accept="application/json,.json"
            data-testid="import-file"
            onChange={(event) => void read(event.target.files?.[0])}
            className="block w-full rounded-lg border border-line bg-canvas text-sm file:mr-3 file:border-0 file:border-r file:border-line file:bg-subtle file:px-3 file:py-2 file:text-sm file:font-medium file:text-fg"
          />
        </div>
        <div>
          <label htmlFor={titleId} className="mb-1 block text-xs font-medium text-muted">
            Title <span className="font-normal text-faint">(optional)</span>
          </label>
          <input
            id={titleId}
            data-testid="import-title"
            value={title}
            maxLength={200}
            onChange={(event) => setTitle(event.target.value)}
            placeholder="New conversation"
            className="w-full rounded-lg border border-line bg-canvas px-3 py-2 text-sm placeholder:text-faint focus:border-accent focus:outline-none"
          />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          data-testid="import-submit"
          disabled={!body || start.isPending || busy}
          className="inline-flex items-center gap-2 rounded-lg bg-accent px-3.5 py-2 text-sm font-medium text-on-accent shadow-xs hover:opacity-90 disabled:opacity-50"
        >
          <UploadIcon />
          {start.isPending ? 'Sending…' : 'Import'}
        </button>
        {body && Array.isArray(body.messages) ? (
          <span className="text-sm text-muted">{plural(body.messages.length, 'message')} in the file</span>
        ) : null}
        {busy ? <span className="text-sm text-muted">One import at a time: this one first.</span> : null}
      </div>
      {problem ? (
        <Notice tone="danger" testId="import-problem">
          {problem}
        </Notice>
      ) : null}
    </form>
  );
}

/** What the worker has done so far: messages stored, then replies remembered; the conversation once done, or why it failed. */
function ImportProgress({ view }: { view: ImportView }) {
  const percent = Math.round(view.progress * 100);
  const step =
    view.status === 'pending'
      ? 'Waiting for the worker…'
      : view.status === 'running'
        ? view.messages.stored < view.messages.total
          ? `Storing messages: ${view.messages.stored.toLocaleString('en-US')} of ${view.messages.total.toLocaleString('en-US')}`
          : `Remembering replies: ${view.replies.done.toLocaleString('en-US')} of ${view.replies.total.toLocaleString('en-US')}`
        : view.status === 'done'
          ? `Imported ${plural(view.messages.total, 'message')}; ${plural(view.replies.done, 'reply', 'replies')} remembered.`
          : view.status === 'dead'
            ? 'The import stopped: it was cut off every time it ran. Staff can run it again.'
            : 'The import failed.';
  return (
    <section
      aria-labelledby="import-progress-title"
      data-testid="import-progress"
      data-status={view.status}
      className="rounded-xl border border-line bg-surface p-4 shadow-xs sm:p-5"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="import-progress-title" className="min-w-0 flex-1 truncate text-base font-semibold tracking-tight">
          {view.title ?? 'Imported conversation'}
        </h2>
        <StatusBadge view={view} />
      </div>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mt-3 h-2 overflow-hidden rounded-full bg-subtle"
      >
        <div
          className={`h-full rounded-full transition-[width] ${view.status === 'failed' || view.status === 'dead' ? 'bg-danger' : 'bg-accent'}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-2 text-sm text-muted" data-testid="import-step" aria-live="polite">
        {step} <span className="text-faint">({percent}%)</span>
      </p>
      {view.status === 'done' && view.jobs.failed > 0 ? (
        <p className="mt-1 text-sm text-warn">{plural(view.jobs.failed, 'memory step')} failed and will be retried in the background.</p>
      ) : null}
      {view.status === 'failed' ? (
        <div className="mt-3">
          <Notice tone="danger" testId="import-error">
            {view.error ?? 'The import failed.'}
          </Notice>
        </div>
      ) : null}
      {view.status === 'done' && view.conversationId ? (
        <Link
          href={`/c/${view.conversationId}`}
          data-testid="import-open"
          className="mt-3 inline-flex items-center gap-2 rounded-lg border border-line px-3 py-1.5 text-sm font-medium hover:bg-subtle"
        >
          Open the conversation
        </Link>
      ) : null}
    </section>
  );
}

function StatusBadge({ view }: { view: ImportView }) {
  const tone = view.status === 'done' ? 'good' : view.status === 'failed' || view.status === 'dead' ? 'danger' : 'accent';
  const label = { pending: 'Queued', running: 'Importing', done: 'Done', failed: 'Failed', dead: 'Stopped' }[view.status];
  return (
    <Badge tone={tone} testId="import-status">
      {label}
    </Badge>
  );
}

/** The user's earlier imports, newest first. */
function PastImports({ imports }: { imports: ImportView[] }) {
  if (imports.length === 0) return null;
  return (
    <Panel id="import-history" title="Earlier imports" description="The last imports you sent, newest first.">
      <ul className="divide-y divide-line" data-testid="import-history">
        {imports.map((view) => (
          <li key={view.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
            <span className="min-w-0 flex-1 truncate">
              {view.status === 'done' && view.conversationId ? (
                <Link href={`/c/${view.conversationId}`} className="font-medium hover:underline">
                  {view.title ?? 'Imported conversation'}
                </Link>
              ) : (
                <span className="font-medium">{view.title ?? 'Imported conversation'}</span>
              )}
            </span>
            <span className="text-muted">{plural(view.messages.total, 'message')}</span>
            <span className="text-faint">{formatDateTime(view.createdAt)}</span>
            <StatusBadge view={view} />
            {view.status === 'failed' && view.error ? <span className="basis-full text-xs text-danger">{view.error}</span> : null}
          </li>
        ))}
      </ul>
    </Panel>
  );
}
