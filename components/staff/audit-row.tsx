import Link from 'next/link';
import type { ReactNode } from 'react';
import { Badge } from '../ui/badge';
import { formatDateTime } from '../ui/format';
import { IdText } from '../ui/id-text';
import { RedactedText } from '../ui/redacted-text';
import { Disclosure } from '../ui/section';
import { ACTION_TONE, OBJECT_TYPES } from './audit-labels';
import type { AuditEntry } from './types';

// One entry of the audit log, with its details.

function json(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return JSON.stringify(value, null, 2);
}

/** A user as the log names them: their email, else what they are and the start of their id. */
function nameOf(userId: string, email: string | null, kind: string | null): string {
  if (email) return email;
  return `${kind ?? 'deleted user'} ${userId.slice(0, 8)}`;
}

/** "ann@example.com", "staff@example.com (you)", "memlens (offline-rules)". */
function Who({ entry, me }: { entry: AuditEntry; me: string | null }) {
  const userId = entry.actorUserId;
  if (!userId) {
    return (
      <span title="memlens itself: a post-turn rule or the memory model">
        memlens <span className="text-muted">({entry.actor})</span>
      </span>
    );
  }
  const kind = userId === entry.targetUserId ? entry.targetKind : entry.actorRole === 'staff' ? 'staff' : 'user';
  const name = nameOf(userId, entry.actorEmail, kind);
  return (
    <Link href={`/staff/users/${userId}`} className="text-accent hover:underline" title={userId}>
      {userId === me ? `${name} (you)` : name}
    </Link>
  );
}

export function AuditRow({ entry, me }: { entry: AuditEntry; me: string | null }) {
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
          <Who entry={entry} me={me} />
        </span>
        <Badge title="The actor's role when it happened">{entry.actorRole}</Badge>
        {entry.targetUserId && entry.targetUserId !== entry.actorUserId ? (
          <>
            <span className="text-muted">about</span>
            <Link
              href={`/staff/users/${entry.targetUserId}`}
              className="text-accent hover:underline"
              title={entry.targetUserId}
              data-testid="audit-target"
            >
              {nameOf(entry.targetUserId, entry.targetEmail, entry.targetKind)}
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
            {entry.erased ? (
              <DetailRow label="Text" title="The member's words this entry was about: removed when they erased their memory or account">
                <span className="text-muted" data-testid="audit-text-erased">
                  {entry.erased}
                </span>
              </DetailRow>
            ) : null}
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
