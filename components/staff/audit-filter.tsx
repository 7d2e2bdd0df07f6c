'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type ReactNode, useId, useState } from 'react';
import { isUuid } from '@/lib/shared/uuid';
import { buttons, inputStyle } from '../ui/styles';
import { ACTIONS, OBJECT_TYPES } from './audit-labels';
import type { AuditFilter } from './types';

// The audit log's filter: who, about whom, what, when.

type Draft = Required<{ [K in keyof AuditFilter]: string }>;

/** The filters; applying them puts them in the address, so a filtered view can be shared or bookmarked. */
export function FilterForm({ filter }: { filter: AuditFilter }) {
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
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

  /** A user as typed: an id or an email, kept as typed (the server looks the email up and says if no user has it). */
  function userRef(value: string, label: string): string | null | undefined {
    const text = value.trim();
    if (!text) return undefined;
    if (isUuid(text) || text.includes('@')) return text;
    setProblem(`${label}: enter a user id or an email address.`);
    return null;
  }

  function apply() {
    setProblem(null);
    if (draft.from && draft.to && draft.from > draft.to) {
      setProblem('The “from” day is after the “to” day.');
      return;
    }
    const actor = userRef(draft.actorUserId, 'Actor');
    const target = userRef(draft.targetUserId, 'Target user');
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
  }

  const anySet = Object.values(filter).some(Boolean);
  return (
    <form
      data-testid="audit-filters"
      aria-label="Filter the audit log"
      className="rounded-xl border border-line bg-surface p-4 shadow-xs sm:p-5"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
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
            <AnyOf
              id={ids.type}
              testId="audit-filter-object"
              value={draft.objectType}
              onChange={set('objectType')}
              options={OBJECT_TYPES}
            />
          </Labelled>
          <Labelled id={ids.action} label="Action">
            <AnyOf id={ids.action} testId="audit-filter-action" value={draft.action} onChange={set('action')} options={ACTIONS} />
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
        <button type="submit" data-testid="audit-apply" className={buttons.primary}>
          Apply filters
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

/** A choice of one of `options`, or "Any". */
function AnyOf({
  id,
  testId,
  value,
  onChange,
  options,
}: {
  id: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  options: Array<[string, string]>;
}) {
  return (
    <select id={id} data-testid={testId} value={value} onChange={(event) => onChange(event.target.value)} className={inputStyle}>
      <option value="">Any</option>
      {options.map(([option, label]) => (
        <option key={option} value={option}>
          {label}
        </option>
      ))}
    </select>
  );
}
