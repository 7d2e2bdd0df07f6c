import { STAFF_REQUEST_HEADER, STAFF_VIEW_HEADER } from '@/lib/shared/staff-header';
import type { ReplayOptions, ReplayResponse, TurnContext, WhyAnswer } from '../api-types';
import { fetchOrThrow, type MessageLocation, queryString as query } from '../http';
import type {
  AuditEntry,
  AuditFilter,
  ConversationDetail,
  JobStatus,
  StaffFact,
  StaffJob,
  StaffJobsPage,
  StaffSummary,
  StaffUserRow,
  UserOverview,
} from './types';

// The staff console's calls to /api/staff/** (every one needs a signed-in staff member).

/**
 * One call, with the header that shows the server it comes from the console itself (lib/csrf.ts:
 * staff routes refuse requests another site's `<img>` or link could make the browser send).
 */
type CallInit = { method?: string; json?: unknown; view?: string };

function call(path: string, init: CallInit = {}): Promise<Response> {
  return fetchOrThrow(path, {
    method: init.method ?? 'GET',
    cache: 'no-store',
    headers: {
      [STAFF_REQUEST_HEADER]: '1',
      ...(init.view ? { [STAFF_VIEW_HEADER]: init.view } : {}),
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
}

async function request<T>(path: string, init: CallInit = {}): Promise<T> {
  // `T` is the server's own type of this answer (imported as a type), not a copy of it.
  return (await (await call(path, init)).json()) as T;
}

/** A yyyy-mm-dd day as the instant it starts (or ends) in the browser's time zone. */
const dayStart = (day: string | undefined) => (day ? new Date(`${day}T00:00:00`).toISOString() : undefined);
const dayEnd = (day: string | undefined) => (day ? new Date(`${day}T23:59:59.999`).toISOString() : undefined);

function auditQuery(filter: AuditFilter, extra: { before?: number; limit?: number; format?: 'jsonl' } = {}) {
  return query({
    actorUserId: filter.actorUserId,
    targetUserId: filter.targetUserId,
    objectType: filter.objectType,
    action: filter.action,
    from: dayStart(filter.from),
    to: dayEnd(filter.to),
    before: extra.before ? String(extra.before) : undefined,
    limit: extra.limit ? String(extra.limit) : undefined,
    format: extra.format,
  });
}

export const staffApi = {
  searchUsers: (q: string) => request<{ users: StaffUserRow[] }>(`/api/staff/users${query({ q })}`).then((r) => r.users),
  user: (id: string, view?: string) => request<UserOverview>(`/api/staff/users/${id}`, { view }),
  // `view`: the page or opened turn record these reads belong to, audited once.
  conversation: (id: string, view?: string) => request<ConversationDetail>(`/api/staff/conversations/${id}`, { view }),
  turn: (messageId: string, view?: string) => request<TurnContext>(`/api/staff/messages/${messageId}/context`, { view }),
  replay: (messageId: string, options: ReplayOptions) =>
    request<ReplayResponse>(`/api/staff/messages/${messageId}/replay`, { method: 'POST', json: options }),
  why: (messageId: string, item: string) => request<WhyAnswer>(`/api/staff/messages/${messageId}/why${query({ item })}`),
  messageLocation: (messageId: string, view?: string) =>
    request<{ message: MessageLocation }>(`/api/staff/messages/${messageId}`, { view }).then(({ message }) => message),
  editFact: (id: string, content: string, reason: string) =>
    request<{ fact: StaffFact }>(`/api/staff/facts/${id}`, { method: 'PATCH', json: { content, reason } }).then((r) => r.fact),
  deleteFact: (id: string, reason: string) =>
    request<{ deleted: string[]; messagesMarked: number; recordsRedacted: number }>(`/api/staff/facts/${id}`, {
      method: 'DELETE',
      json: { reason },
    }),
  clearSummary: (conversationId: string, reason: string) =>
    request<{ summary: StaffSummary }>(`/api/staff/conversations/${conversationId}/summary`, { method: 'DELETE', json: { reason } }),
  jobs: (filter: { status?: JobStatus; userId?: string }, before?: number) =>
    request<StaffJobsPage>(
      `/api/staff/jobs${query({ status: filter.status, userId: filter.userId, before: before ? String(before) : undefined })}`,
    ),
  retryJob: (id: string) =>
    request<{ job: Pick<StaffJob, 'status' | 'lastError'> | null }>(`/api/staff/jobs/${id}/retry`, { method: 'POST' }).then((r) => r.job),
  retryImport: (id: string) => request<{ import: { id: string; status: 'pending' } }>(`/api/staff/imports/${id}/retry`, { method: 'POST' }),
  audit: (filter: AuditFilter, before: number | undefined, limit: number) =>
    request<{ entries: AuditEntry[] }>(`/api/staff/audit${auditQuery(filter, { before, limit })}`).then((r) => r.entries),
  /** The newest `limit` matching entries as a JSON Lines file. */
  auditExport: async (filter: AuditFilter, limit: number) =>
    (await call(`/api/staff/audit${auditQuery(filter, { format: 'jsonl', limit })}`)).blob(),
};

export const staffKeys = {
  all: ['staff'] as const,
  users: (q: string) => ['staff', 'users', q] as const,
  user: (id: string) => ['staff', 'user', id] as const,
  conversation: (id: string) => ['staff', 'conversation', id] as const,
  turn: (id: string) => ['staff', 'turn', id] as const,
  jobs: (status: string, userId: string) => ['staff', 'jobs', status, userId] as const,
  audit: (filter: AuditFilter) => ['staff', 'audit', filter] as const,
};
