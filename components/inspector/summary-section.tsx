'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, memoryKeys } from '../api';
import type { SummaryResponse, SummaryVersion } from '../api-types';
import { ConfirmDialog } from '../confirm-dialog';
import { describeActor } from '../describe-actor';
import { ApiError } from '../http';
import { Badge, Notice } from '../ui/badge';
import { formatDateTime } from '../ui/format';
import { LoadError, Skeleton } from '../ui/loading';
import { Disclosure, Section } from '../ui/section';
import { VisibleText } from '../visible-text';
import { SourceLinks } from './source-links';
import { SummaryScheduleNote } from './summary-schedule-note';

const ACTION_LABELS: Record<SummaryVersion['action'], string> = {
  refresh: 'Refreshed',
  edit: 'Edited',
  clear: 'Cleared',
  rebuild: 'Rebuilt',
};

/** The conversation's rolling summary: read it, edit it (guarded by its version), clear it, see every version. */
export function SummarySection({ conversationId }: { conversationId: string }) {
  const queryClient = useQueryClient();
  const key = memoryKeys.summary(conversationId);
  const query = useQuery({ queryKey: key, queryFn: () => api.getSummary(conversationId), staleTime: 2_000 });
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  /** The version the edit is based on; a newer one on the server makes the save fail with 409. */
  const [baseVersion, setBaseVersion] = useState<number | undefined>(undefined);
  const [conflict, setConflict] = useState<{ message: string; latest: SummaryResponse['summary'] } | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const editorId = useId();

  const reload = () => queryClient.fetchQuery({ queryKey: key, queryFn: () => api.getSummary(conversationId), staleTime: 0 });

  const save = useMutation({
    mutationFn: () => api.editSummary(conversationId, draft, baseVersion),
    onSuccess: async () => {
      setEditing(false);
      setConflict(null);
      await queryClient.invalidateQueries({ queryKey: key });
    },
    onError: async (error) => {
      if (error instanceof ApiError && error.status === 409) {
        // Someone else (or the summariser) wrote a newer version: show it, keep the draft, rebase on it.
        const fresh = await reload().catch(() => undefined);
        setConflict({ message: error.message, latest: fresh?.summary ?? null });
        setBaseVersion(fresh?.summary?.version);
      }
    },
  });

  const clear = useMutation({
    mutationFn: () => api.clearSummary(conversationId),
    onSuccess: async () => {
      setConfirmClear(false);
      setEditing(false);
      await queryClient.invalidateQueries({ queryKey: key });
    },
    onError: async (error) => {
      if (error instanceof ApiError && error.status === 409) await reload().catch(() => undefined);
    },
  });

  const summary = query.data?.summary ?? null;
  const versions = query.data?.versions ?? [];
  const empty = !summary || summary.content.trim() === '';
  const covers = query.data?.schedule.covers;

  const startEditing = () => {
    setDraft(summary?.content ?? '');
    setBaseVersion(summary?.version);
    setConflict(null);
    save.reset();
    setEditing(true);
  };

  return (
    <Section
      testId="summary"
      title="Conversation summary"
      meta={summary ? `v${summary.version}${covers ? ` · messages ${covers.from}–${covers.to}` : ''}` : 'none yet'}
    >
      {query.isPending ? (
        <Skeleton lines={3} />
      ) : query.isError ? (
        <LoadError what="the summary" error={query.error} retry={() => void query.refetch()} />
      ) : (
        <div className="space-y-3">
          {summary ? (
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
              <Badge tone="accent" testId="summary-version">
                Version {summary.version}
              </Badge>
              <span data-testid="summary-covered">
                covers {summary.coveredMessageCount} message{summary.coveredMessageCount === 1 ? '' : 's'}
              </span>
              <span>·</span>
              <span data-testid="summary-updated-by">
                {describeActor(summary.updatedBy)}, {formatDateTime(summary.updatedAt)}
              </span>
            </div>
          ) : null}

          {editing ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                save.mutate();
              }}
              className="space-y-2"
            >
              <label htmlFor={editorId} className="text-xs font-medium text-muted">
                Edit the summary{baseVersion !== undefined ? ` (based on version ${baseVersion})` : ''}
              </label>
              <textarea
                id={editorId}
                data-testid="summary-input"
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Escape') {
                    event.preventDefault();
                    setEditing(false);
                  }
                }}
                rows={8}
                maxLength={20_000}
                // biome-ignore lint/a11y/noAutofocus: the user just opened this field to type in it, so moving the focus there is the expected move
                autoFocus
                className="block w-full resize-y rounded-lg border border-line bg-canvas px-2.5 py-2 font-mono text-[12.5px] leading-5 focus:border-accent focus:outline-none"
              />
              {conflict ? (
                <Notice tone="warn" testId="summary-conflict">
                  <p className="font-medium">The summary changed while you were editing.</p>
                  <p className="mt-1">{conflict.message}</p>
                  <p className="mt-1">
                    {conflict.latest
                      ? `Version ${conflict.latest.version} is loaded. Your text is still in the editor: Save again to replace it.`
                      : 'It no longer exists. Save to write yours.'}
                  </p>
                  {conflict.latest?.content ? (
                    <pre className="mt-2 max-h-40 overflow-auto rounded bg-surface/70 p-2 font-mono text-[12px] whitespace-pre-wrap text-fg">
                      <VisibleText text={conflict.latest.content} />
                    </pre>
                  ) : null}
                </Notice>
              ) : save.isError ? (
                <Notice tone="danger" testId="summary-error">
                  Could not save: {save.error.message}
                </Notice>
              ) : null}
              <div className="flex items-center justify-end gap-2">
                <span className="mr-auto text-xs text-faint">The next refresh builds on your text.</span>
                <button
                  type="button"
                  onClick={() => setEditing(false)}
                  className="rounded-lg px-3 py-1.5 text-sm font-medium hover:bg-subtle"
                >
                  Cancel
                </button>
                <button
                  type="submit"
                  data-testid="summary-save"
                  disabled={save.isPending}
                  className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:bg-accent-hover disabled:opacity-60"
                >
                  {save.isPending ? 'Saving…' : 'Save'}
                </button>
              </div>
            </form>
          ) : (
            <>
              {summary && !empty ? (
                <p
                  data-testid="summary-content"
                  className="rounded-lg border border-line bg-canvas px-3 py-2 text-sm leading-6 whitespace-pre-wrap"
                >
                  <VisibleText text={summary.content} />
                </p>
              ) : (
                <p data-testid="summary-content" className="text-sm text-muted">
                  {summary
                    ? 'The summary is empty (cleared): later versions cover only messages written after the clear.'
                    : 'No summary yet: it stands for older messages once there are enough of them.'}
                </p>
              )}
              {query.data ? <SummaryScheduleNote schedule={query.data.schedule} hasSummary={!empty} /> : null}
              {summary?.sourceMessageIds && summary.sourceMessageIds.length > 0 ? (
                <div className="flex flex-wrap items-center gap-1.5 text-[11px] text-muted">
                  <span>from</span>
                  <SourceLinks ids={summary.sourceMessageIds} />
                </div>
              ) : null}
              <div className="flex gap-2">
                <button
                  type="button"
                  data-testid="summary-edit"
                  onClick={startEditing}
                  className="rounded-lg border border-line px-3 py-1.5 text-sm font-medium hover:bg-subtle"
                >
                  {summary ? 'Edit' : 'Write one'}
                </button>
                <button
                  type="button"
                  data-testid="summary-clear"
                  onClick={() => {
                    clear.reset();
                    setConfirmClear(true);
                  }}
                  disabled={empty}
                  className="rounded-lg border border-line px-3 py-1.5 text-sm font-medium text-danger hover:bg-danger-soft disabled:pointer-events-none disabled:opacity-40"
                >
                  Clear
                </button>
              </div>
            </>
          )}

          {versions.length > 0 ? (
            <Disclosure testId="summary-history" label={`Version history (${versions.length})`}>
              <ol className="mt-1 space-y-2">
                {versions.map((version) => (
                  <VersionItem key={version.version} version={version} />
                ))}
              </ol>
            </Disclosure>
          ) : null}
        </div>
      )}

      <ConfirmDialog
        open={confirmClear}
        title="Clear this summary?"
        description="The summary becomes empty, and later versions cover only messages written after now, so what it said is never summarised again. Those earlier messages can still be recalled on their own, and earlier versions stay in the history."
        confirmLabel="Clear summary"
        busy={clear.isPending}
        error={clear.error ? clear.error.message : null}
        onConfirm={() => clear.mutate()}
        onCancel={() => setConfirmClear(false)}
        testId="summary-clear-dialog"
      />
    </Section>
  );
}

function VersionItem({ version }: { version: SummaryVersion }) {
  return (
    <li
      data-testid="summary-version-item"
      data-version={version.version}
      data-action={version.action}
      className="rounded-lg border border-line p-2 text-xs"
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <span className="font-mono font-semibold">v{version.version}</span>
        <Badge tone={version.action === 'clear' ? 'danger' : version.action === 'edit' ? 'accent' : 'neutral'}>
          {ACTION_LABELS[version.action] ?? version.action}
        </Badge>
        <span className="text-muted">by {describeActor(version.actor)}</span>
        <span className="ml-auto text-faint">{formatDateTime(version.createdAt)}</span>
      </div>
      <details className="mt-1.5">
        <summary className="cursor-pointer text-muted select-none hover:text-fg">Before / after</summary>
        <div className="mt-1.5 grid gap-1.5">
          <div>
            <p className="mb-0.5 text-[11px] font-medium text-faint">Before</p>
            <pre className="max-h-40 overflow-auto rounded bg-danger-soft/50 p-1.5 font-mono text-[11.5px] leading-5 whitespace-pre-wrap">
              {version.before || '(empty)'}
            </pre>
          </div>
          <div>
            <p className="mb-0.5 text-[11px] font-medium text-faint">After</p>
            <pre className="max-h-40 overflow-auto rounded bg-emerald-50 p-1.5 font-mono text-[11.5px] leading-5 whitespace-pre-wrap dark:bg-emerald-950/40">
              {version.after || '(empty)'}
            </pre>
          </div>
        </div>
      </details>
    </li>
  );
}
