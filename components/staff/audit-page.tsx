'use client';

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type ReactNode, useId, useState } from 'react';
import { Badge } from '../ui/badge';
import { Card } from '../ui/card';
import { formatDateTime, plural } from '../ui/format';
import { IdText } from '../ui/id-text';
import { Empty, LoadError, Skeleton } from '../ui/loading';
import { RedactedText } from '../ui/redacted-text';
import { Disclosure } from '../ui/section';
import { buttons, inputStyle } from '../ui/styles';
import { isUuid } from '../ui/uuid';
import { staffApi, staffKeys } from './api';
import type { AuditEntry, AuditFilter } from './types';

const PAGE = 50;

const OBJECT_TYPES: Array<[string, string]> = [
  ['fact', 'Fact'],
  ['summary', 'Summary'],
  ['message', 'Message'],
  ['episode', 'Episode (remembered exchange)'],
  ['memory', 'All memory (forget everything)'],
  ['conversation', 'Conversation'],
  ['turn_record', 'Turn record'],
  ['turn_replay', 'Turn replay'],
  ['user', 'User account'],
  ['user_search', 'User search'],
  ['jobs', 'A user’s job list'],
  ['job', 'Job'],
];

const ACTIONS: Array<[string, string]> = [
  ['changes', 'any change (leaves out staff reads)'],
  ['read', 'read (staff looked at it)'],
  ['add', 'add'],
  ['edit', 'edit'],
  ['delete', 'delete'],
  ['clear', 'clear'],
  ['forget', 'forget'],
  ['end', 'end (a fact stopped being current)'],
  ['restore', 'restore (a fact is current again)'],
  ['retry', 'retry (a job)'],
  ['grant_staff', 'grant staff (a role change)'],
  ['revoke_staff', 'revoke staff (a role change)'],
];

const ACTION_TONE: Record<string, 'neutral' | 'accent' | 'warn' | 'danger' | 'good'> = {
  read: 'neutral',
  add: 'good',
  edit: 'accent',
  delete: 'danger',
  clear: 'danger',
  forget: 'danger',
  end: 'warn',
  restore: 'good',
  retry: 'accent',
};

const FIELDS_HELP = (
  <>
    <p>
      One entry per event, newest first. The log is append-only: the database refuses to change or delete an entry. It records every time
      staff read another user&apos;s data, and every edit, deletion, clear or forget of memory by anyone (the user, staff, or memlens
      itself).
    </p>
    <p>
      <b>Action</b> on an <b>object</b>: what happened to what (a fact edited, a summary cleared, a turn record read…). <b>By</b>: who did
      it, with their role at the time: <b>staff</b>, <b>user</b> (the person changing their own memory), or <b>system</b> (memlens&apos; own
      rules, e.g. a fact replaced by a newer one). <b>About</b>: whose data it is. <b>Reason</b>: why, required for every staff edit.
    </p>
    <p>
      <b>Before / after</b>: the object around the change. Deleted text appears only as <span className="font-mono">[redacted]</span>, here
      and in the export. <b>Request</b>: the id of the HTTP request; entries sharing it were written by the same action.
    </p>
  </>
);

const EXPORT_LIMIT = 1000;

/**
 * Downloads the matching entries. Fetched with the console's header, as every staff call is (a
 * plain link would carry none, and the server could not tell it from a link on another site).
 */
function ExportButton({ filter }: { filter: AuditFilter }) {
  const [exporting, setExporting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const download = async () => {
    setExporting(true);
    setProblem(null);
    try {
      const url = URL.createObjectURL(await staffApi.auditExport(filter, EXPORT_LIMIT));
      const link = Object.assign(document.createElement('a'), { href: url, download: 'memlens-audit.jsonl' });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        onClick={() => void download()}
        disabled={exporting}
        data-testid="audit-export"
        className={buttons.secondary}
        title="The newest 1,000 entries matching the filters, one JSON object per line"
      >
        {exporting ? 'Exporting…' : 'Export JSON Lines'}
      </button>
      {problem && (
        <p role="alert" className="text-sm text-danger">
          Export failed: {problem}
        </p>
      )}
    </div>
  );
}

/** /staff/audit: the audit log with filters, paging and a JSON Lines export. */
export function AuditPage({ filter }: { filter: AuditFilter }) {
  const me = useQuery({
    queryKey: ['me'],
    queryFn: async () => (await (await fetch('/api/me', { cache: 'no-store' })).json()) as { user: { id: string } },
    staleTime: 30_000,
  });
  const entries = useInfiniteQuery({
    queryKey: staffKeys.audit(filter),
    queryFn: ({ pageParam }) => staffApi.audit(filter, pageParam, PAGE),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.length === PAGE ? last.at(-1)!.id : undefined),
  });
  const rows = entries.data?.pages.flat() ?? [];
  const moreError = entries.isFetchNextPageError ? entries.error : null;
  const active = Object.values(filter).filter(Boolean).length;

  return (
    <div className="space-y-6" data-testid="staff-audit">
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <div className="min-w-0 flex-1 basis-72">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">Audit log</h1>
          <p className="mt-1.5 max-w-3xl text-[15px] leading-7 text-muted">
            Who read or changed whose data, when and why. Filter it, page back through it, or export what the filters match (the newest
            1,000 entries) as JSON Lines, one entry per line.
          </p>
        </div>
        <ExportButton filter={filter} />
      </div>

      <FilterForm key={JSON.stringify(filter)} filter={filter} />

      <Card
        title={active ? 'Matching entries' : 'All entries'}
        meta={entries.data ? `${plural(rows.length, 'entry', 'entries')} shown${entries.hasNextPage ? ', more below' : ''}` : undefined}
        help={FIELDS_HELP}
        description="Newest first. Open an entry for what it changed."
        testId="audit-results"
        flush
      >
        {entries.isPending ? (
          <div role="status" aria-label="Loading the audit log">
            <Skeleton lines={6} />
          </div>
        ) : entries.isError ? (
          <div className="px-4 pb-4 sm:px-5">
            <LoadError what="the audit log" error={entries.error} retry={() => void entries.refetch()} />
          </div>
        ) : rows.length === 0 ? (
          <div className="px-4 pb-4 sm:px-5">
            <Empty title={active ? 'No entry matches these filters' : 'The audit log is empty'} testId="audit-empty">
              {active
                ? 'Widen the date range or clear a filter.'
                : 'Entries appear when staff read a user’s data or anyone changes memory.'}
            </Empty>
          </div>
        ) : (
          <>
            <ol className="divide-y divide-line border-t border-line" data-testid="audit-list">
              {rows.map((entry) => (
                <AuditRow key={entry.id} entry={entry} me={me.data?.user.id ?? null} />
              ))}
            </ol>
            <div className="flex flex-wrap items-center justify-center gap-3 border-t border-line px-4 py-3 text-sm text-muted">
              {entries.hasNextPage ? (
                <button
                  type="button"
                  data-testid="audit-more"
                  onClick={() => void entries.fetchNextPage()}
                  disabled={entries.isFetchingNextPage}
                  className={buttons.secondary}
                >
                  {entries.isFetchingNextPage ? 'Loading…' : `Load ${PAGE} older entries`}
                </button>
              ) : (
                <span data-testid="audit-end">That is every matching entry.</span>
              )}
              {moreError ? <span className="text-danger">Could not load more: {moreError.message}</span> : null}
            </div>
          </>
        )}
      </Card>
    </div>
  );
}

type Draft = Required<{ [K in keyof AuditFilter]: string }>;

/** The filters; applying them puts them in the address, so a filtered view can be shared or bookmarked. */
function FilterForm({ filter }: { filter: AuditFilter }) {
  const router = useRouter();
  const ids = { actor: useId(), target: useId(), type: useId(), action: useId(), from: useId(), to: useId() };
  const [draft, setDraft] = useState<Draft>({
    actorUserId: filter.actorUserId ?? '',
    targetUserId: filter.targetUserId ?? '',
    objectType: filter.objectType ?? '',
    action: filter.action ?? '',
    from: filter.from ?? '',
    to: filter.to ?? '',
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

  /** A user id as typed, or the id of the user with this exact email (looked up with the user search). */
  async function resolveUser(value: string, label: string): Promise<string | null | undefined> {
    const text = value.trim();
    if (!text) return undefined;
    if (isUuid(text)) return text.toLowerCase();
    if (!text.includes('@')) {
      setProblem(`${label}: enter a user id or an email address.`);
      return null;
    }
    const users = await staffApi.searchUsers(text);
    const match = users.find((u) => u.email?.toLowerCase() === text.toLowerCase());
    if (!match) setProblem(`${label}: no user has the email ${text}.`);
    return match ? match.id : null;
  }

  async function apply() {
    setProblem(null);
    if (draft.from && draft.to && draft.from > draft.to) {
      setProblem('The “from” day is after the “to” day.');
      return;
    }
    setBusy(true);
    try {
      const actor = await resolveUser(draft.actorUserId, 'Actor');
      const target = await resolveUser(draft.targetUserId, 'Target user');
      if (actor === null || target === null) return;
      const params = new URLSearchParams();
      if (actor) params.set('actorUserId', actor);
      if (target) params.set('targetUserId', target);
      if (draft.objectType) params.set('objectType', draft.objectType);
      if (draft.action) params.set('action', draft.action);
      if (draft.from) params.set('from', draft.from);
      if (draft.to) params.set('to', draft.to);
      const text = params.toString();
      router.replace(`/staff/audit${text ? `?${text}` : ''}`, { scroll: false });
    } catch (error) {
      setProblem(`Could not look the user up: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  const anySet = Object.values(filter).some(Boolean);
  return (
    <form
      data-testid="audit-filters"
      aria-label="Filter the audit log"
      className="rounded-xl border border-line bg-surface p-4 shadow-xs sm:p-5"
      onSubmit={(event) => {
        event.preventDefault();
        void apply();
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Labelled id={ids.actor} label="Actor" hint="who did it: user id or email">
          <input
            id={ids.actor}
            data-testid="audit-filter-actor"
            value={draft.actorUserId}
            onChange={(event) => set('actorUserId')(event.target.value)}
            placeholder="staff@… or a user id"
            autoComplete="off"
            spellCheck={false}
            className={inputStyle}
          />
        </Labelled>
        <Labelled id={ids.target} label="Target user" hint="whose data: user id or email">
          <input
            id={ids.target}
            data-testid="audit-filter-target"
            value={draft.targetUserId}
            onChange={(event) => set('targetUserId')(event.target.value)}
            placeholder="someone@… or a user id"
            autoComplete="off"
            spellCheck={false}
            className={inputStyle}
          />
        </Labelled>
        <div className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-1">
          <Labelled id={ids.type} label="Object">
            <select
              id={ids.type}
              data-testid="audit-filter-object"
              value={draft.objectType}
              onChange={(event) => set('objectType')(event.target.value)}
              className={inputStyle}
            >
              <option value="">Any</option>
              {OBJECT_TYPES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Labelled>
          <Labelled id={ids.action} label="Action">
            <select
              id={ids.action}
              data-testid="audit-filter-action"
              value={draft.action}
              onChange={(event) => set('action')(event.target.value)}
              className={inputStyle}
            >
              <option value="">Any</option>
              {ACTIONS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </Labelled>
        </div>
        <div className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-1">
          <Labelled id={ids.from} label="From" hint="day, inclusive">
            <input
              id={ids.from}
              type="date"
              data-testid="audit-filter-from"
              value={draft.from}
              onChange={(event) => set('from')(event.target.value)}
              className={inputStyle}
            />
          </Labelled>
          <Labelled id={ids.to} label="To" hint="day, inclusive">
            <input
              id={ids.to}
              type="date"
              data-testid="audit-filter-to"
              value={draft.to}
              onChange={(event) => set('to')(event.target.value)}
              className={inputStyle}
            />
          </Labelled>
        </div>
      </div>
      {problem ? (
        <p role="alert" data-testid="audit-filter-error" className="mt-3 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
          {problem}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <button type="submit" data-testid="audit-apply" disabled={busy} className={buttons.primary}>
          {busy ? 'Looking up…' : 'Apply filters'}
        </button>
        {anySet ? (
          <Link href="/staff/audit" replace scroll={false} data-testid="audit-reset" className={buttons.secondary}>
            Clear filters
          </Link>
        ) : null}
        <span className="text-xs text-muted">Dates are days in your time zone.</span>
      </div>
    </form>
  );
}

function Labelled({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label} {hint ? <span className="font-normal text-muted">· {hint}</span> : null}
      </label>
      {children}
    </div>
  );
}

function json(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return JSON.stringify(value, null, 2);
}

/** "staff 1a2b3c4d", "you", "the user", "memlens (offline-rules)". */
function Who({
  userId,
  role,
  label,
  me,
  targetUserId,
}: {
  userId: string | null;
  role: string;
  label: string;
  me: string | null;
  targetUserId: string | null;
}) {
  if (!userId) {
    return (
      <span title="memlens itself: a post-turn rule or the memory model">
        memlens <span className="text-muted">({label})</span>
      </span>
    );
  }
  const name = userId === me ? 'you' : userId === targetUserId ? 'the user' : `${role} ${userId.slice(0, 8)}`;
  return (
    <Link href={`/staff/users/${userId}`} className="text-accent hover:underline" title={userId}>
      {name}
    </Link>
  );
}

function AuditRow({ entry, me }: { entry: AuditEntry; me: string | null }) {
  const before = json(entry.before);
  const after = json(entry.after);
  const tone = ACTION_TONE[entry.action] ?? 'neutral';
  const objectLabel = OBJECT_TYPES.find(([value]) => value === entry.objectType)?.[1] ?? entry.objectType;
  return (
    <li
      data-testid="audit-entry"
      data-entry-id={entry.id}
      data-action={entry.action}
      data-object-type={entry.objectType}
      className="px-4 py-3 sm:px-5"
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <time dateTime={entry.at} className="w-full text-xs text-muted tabular-nums sm:w-36 sm:shrink-0">
          {formatDateTime(entry.at)}
        </time>
        <Badge tone={tone} testId="audit-action">
          {entry.action}
        </Badge>
        <span className="font-medium" data-testid="audit-object">
          {objectLabel.toLowerCase()}
        </span>
        {entry.objectId ? (
          <span className="font-mono text-xs text-muted" title={entry.objectId}>
            {entry.objectId.slice(0, 8)}
          </span>
        ) : null}
        <span className="text-muted">by</span>
        <span data-testid="audit-actor">
          <Who userId={entry.actorUserId} role={entry.actorRole} label={entry.actor} me={me} targetUserId={entry.targetUserId} />
        </span>
        <Badge title="The actor's role when it happened">{entry.actorRole}</Badge>
        {entry.targetUserId && entry.targetUserId !== entry.actorUserId ? (
          <>
            <span className="text-muted">about</span>
            <Link
              href={`/staff/users/${entry.targetUserId}`}
              className="font-mono text-xs text-accent hover:underline"
              title={entry.targetUserId}
              data-testid="audit-target"
            >
              user {entry.targetUserId.slice(0, 8)}
            </Link>
          </>
        ) : entry.targetUserId ? (
          <span className="text-muted">(their own data)</span>
        ) : null}
      </div>
      {entry.reason ? (
        <p className="mt-1.5 text-sm sm:pl-38" data-testid="audit-reason">
          <span className="text-muted">Reason: </span>“{entry.reason}”
        </p>
      ) : null}
      <div className="mt-1 sm:pl-38">
        <Disclosure testId="audit-details" label="Details">
          <dl className="mt-1 grid gap-x-4 gap-y-1.5 text-xs sm:grid-cols-[8rem_minmax(0,1fr)]">
            <DetailRow label="Entry" title="The entry's number: it only ever grows">
              <span className="font-mono">#{entry.id}</span>
            </DetailRow>
            <DetailRow label="Actor" title="Who did it, as memory records name them (user:<id>, or a rule or model of memlens)">
              <span className="font-mono break-all">{entry.actor}</span>
            </DetailRow>
            {entry.targetUserId ? (
              <DetailRow label="Target user" title="Whose data it is">
                <IdText id={entry.targetUserId} />
              </DetailRow>
            ) : null}
            {entry.objectId ? (
              <DetailRow label="Object id" title={`The id of the ${objectLabel.toLowerCase()}`}>
                <IdText id={entry.objectId} />
              </DetailRow>
            ) : null}
            <DetailRow label="Request" title="The HTTP request that wrote it; entries with the same request id belong to one action">
              {entry.requestId ? <IdText id={entry.requestId} /> : <span className="text-muted">— (not from a request)</span>}
            </DetailRow>
            <DetailRow label="Before" title="The object before the change; deleted text reads [redacted]">
              {before ? <JsonBlock text={before} testId="audit-before" /> : <span className="text-muted">—</span>}
            </DetailRow>
            <DetailRow label="After" title="The object after the change">
              {after ? <JsonBlock text={after} testId="audit-after" /> : <span className="text-muted">—</span>}
            </DetailRow>
          </dl>
        </Disclosure>
      </div>
    </li>
  );
}

function DetailRow({ label, title, children }: { label: string; title: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted" title={title}>
        {label}
      </dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

function JsonBlock({ text, testId }: { text: string; testId: string }) {
  return (
    <pre
      data-testid={testId}
      className="max-h-56 overflow-auto rounded-md border border-line bg-subtle px-2.5 py-1.5 font-mono text-[11.5px] leading-5 whitespace-pre-wrap break-words"
    >
      <RedactedText text={text} />
    </pre>
  );
}
