// Before http.ts builds its zod schema on load: zod must not probe for eval under the CSP.
import './zod-without-eval';
import type {
  AddFactResult,
  EpisodeDeleteResult,
  EpisodePage,
  Fact,
  FactEvent,
  FactKind,
  FactPage,
  FactStatus,
  ForgetResult,
  MemoryChanges,
  MemoryCounts,
  MemoryDeleteResult,
  MessageRemoval,
  MessageRemovalPlan,
  RecentChangesPage,
  ReplayOptions,
  ReplayResponse,
  SummaryResponse,
  TurnContext,
  UndoRef,
  UndoResult,
  WhyAnswer,
} from './api-types';
import { fetchOrThrow, type MessageLocation, queryString as query } from './http';
import type { ConversationSummary, ImportView, StoredMessage } from './types';

async function request<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const response = await fetchOrThrow(path, {
    ...rest,
    headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...rest.headers },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  // `T` is the server's own type of this answer (imported as a type), not a copy of it.
  const answer = (await response.json()) as T;
  offerUndoOf(path, rest.method ?? 'GET', answer);
  return answer;
}

export const api = {
  listConversations: () => request<{ conversations: ConversationSummary[] }>('/api/conversations').then((r) => r.conversations),
  createConversation: (title?: string) =>
    request<{ conversation: ConversationSummary }>('/api/conversations', { method: 'POST', json: title ? { title } : {} }).then(
      (r) => r.conversation,
    ),
  renameConversation: (id: string, title: string) =>
    request<{ conversation: ConversationSummary }>(`/api/conversations/${id}`, { method: 'PATCH', json: { title } }).then(
      (r) => r.conversation,
    ),
  deleteConversation: (id: string) => request<{ deleted: string }>(`/api/conversations/${id}`, { method: 'DELETE' }),
  listMessages: (conversationId: string) =>
    request<{ messages: StoredMessage[] }>(`/api/conversations/${conversationId}/messages`, { cache: 'no-store' }).then((r) => r.messages),
  clearMessages: (conversationId: string) =>
    request<{ removed: number }>(`/api/conversations/${conversationId}/messages`, { method: 'DELETE' }),

  // ---- memory (the inspector)
  getTurnContext: (messageId: string) => request<TurnContext>(`/api/messages/${messageId}/context`, { cache: 'no-store' }),
  getSummary: (conversationId: string) => request<SummaryResponse>(`/api/conversations/${conversationId}/summary`, { cache: 'no-store' }),
  editSummary: (conversationId: string, content: string, version: number | undefined) =>
    request<{ summary: SummaryResponse['summary'] }>(`/api/conversations/${conversationId}/summary`, {
      method: 'PUT',
      json: version === undefined ? { content } : { content, version },
    }),
  clearSummary: (conversationId: string) =>
    request<{ summary: SummaryResponse['summary'] }>(`/api/conversations/${conversationId}/summary`, { method: 'DELETE' }),
  listFacts: (filter: { q?: string; status?: FactStatus; cursor?: string | null }) =>
    request<FactPage>(`/api/facts${query({ q: filter.q, status: filter.status, cursor: filter.cursor ?? undefined })}`, {
      cache: 'no-store',
    }),
  getFact: (id: string) => request<{ fact: Fact; history: FactEvent[] }>(`/api/facts/${id}`, { cache: 'no-store' }),
  editFact: (id: string, content: string) =>
    request<{ fact: Fact }>(`/api/facts/${id}`, { method: 'PATCH', json: { content } }).then((r) => r.fact),
  deleteFact: (id: string) => request<MemoryDeleteResult>(`/api/facts/${id}`, { method: 'DELETE' }),
  /** Corrects a listed item's text: every fact of it (one per kind its statement gave), as one change. */
  editFactItem: (ids: string[], content: string) =>
    ids.length === 1
      ? api.editFact(ids[0], content)
      : request<{ facts: Fact[] }>('/api/facts', { method: 'PATCH', json: { ids, content } }).then((r) => r.facts[0]),
  /** Forgets a listed item: every fact of it, as one change. */
  deleteFactItem: (ids: string[]): Promise<Omit<MemoryDeleteResult, 'deleted'>> =>
    ids.length === 1
      ? api.deleteFact(ids[0])
      : request<Omit<MemoryDeleteResult, 'deleted'>>('/api/facts', { method: 'DELETE', json: { ids } }),
  memoryCounts: () => request<MemoryCounts>('/api/memory', { cache: 'no-store' }),
  forgetEverything: () => request<ForgetResult>('/api/memory', { method: 'DELETE' }),
  messageLocation: (messageId: string) =>
    request<{ message: MessageLocation }>(`/api/messages/${messageId}`, { cache: 'no-store' }).then(({ message }) => ({
      conversationId: message.conversationId,
      role: message.role,
    })),
  whyNotRecalled: (messageId: string, item: string) =>
    request<WhyAnswer>(`/api/messages/${messageId}/why${query({ item })}`, { cache: 'no-store' }),
  replayTurn: (messageId: string, options: ReplayOptions = {}) =>
    request<ReplayResponse>(`/api/messages/${messageId}/replay`, { method: 'POST', json: options, cache: 'no-store' }),

  // ---- imports (/import): queued at once, then followed until the worker is done
  startImport: (body: unknown) => request<{ import: ImportView }>('/api/import', { method: 'POST', json: body }).then((r) => r.import),
  getImport: (id: string) => request<{ import: ImportView }>(`/api/import/${id}`, { cache: 'no-store' }).then((r) => r.import),
  listImports: () => request<{ imports: ImportView[] }>('/api/import', { cache: 'no-store' }).then((r) => r.imports),

  // ---- the Memory page (/memory)
  addFact: (content: string, slot?: FactKind) =>
    request<AddFactResult>('/api/facts', { method: 'POST', json: slot ? { content, slot } : { content } }),
  listEpisodes: (filter: { q?: string; cursor?: string | null }) =>
    request<EpisodePage>(`/api/episodes${query({ q: filter.q, cursor: filter.cursor ?? undefined })}`, { cache: 'no-store' }),
  deleteEpisode: (id: string) => request<EpisodeDeleteResult>(`/api/episodes/${id}`, { method: 'DELETE' }),

  // ---- deleting a message: what it would do, then doing it (its answer offers Undo like every correction)
  messageRemovalPlan: (messageId: string) => request<MessageRemovalPlan>(`/api/messages/${messageId}/removal`, { cache: 'no-store' }),
  deleteMessage: (messageId: string) => request<MessageRemoval>(`/api/messages/${messageId}`, { method: 'DELETE' }),

  // ---- undo: what a reply changed in memory, the user's recent changes, and undoing a change
  memoryChanges: (replyId: string) => request<MemoryChanges>(`/api/messages/${replyId}/memory-changes`, { cache: 'no-store' }),
  recentChanges: (cursor: string | null, limit: number) =>
    request<RecentChangesPage>(`/api/corrections${query({ cursor: cursor ?? undefined, limit: String(limit) })}`, { cache: 'no-store' }),
  undoChange: (id: string) => request<UndoResult>(`/api/corrections/${id}/undo`, { method: 'POST' }),
};

// ---- undo offers: every correction answers how to undo it; the toast offers it

/** A correction just made, which the user can undo until `expiresAt`; `label` says what it was. */
export type UndoOffer = UndoRef & { label: string };

const undoListeners = new Set<(offer: UndoOffer) => void>();

/** What a correction is called, by its route. */
const UNDO_LABELS: Array<[RegExp, string, string]> = [
  [/^\/api\/facts\/[^/]+$/u, 'PATCH', 'Fact edited.'],
  [/^\/api\/facts\/[^/]+$/u, 'DELETE', 'Fact deleted.'],
  [/^\/api\/facts$/u, 'PATCH', 'Fact edited.'],
  [/^\/api\/facts$/u, 'DELETE', 'Fact deleted.'],
  [/^\/api\/episodes\/[^/]+$/u, 'DELETE', 'Remembered exchange forgotten.'],
  [/^\/api\/conversations\/[^/]+\/summary$/u, 'DELETE', 'Summary cleared.'],
  [/^\/api\/memory$/u, 'DELETE', 'Everything memlens remembered is forgotten.'],
  [/^\/api\/messages\/[^/]+$/u, 'DELETE', 'Message deleted.'],
];

function offerUndoOf(path: string, method: string, answer: unknown): void {
  if (method === 'GET' || !answer || typeof answer !== 'object' || !('undo' in answer)) return;
  const undo = (answer as { undo: UndoRef | null }).undo;
  if (!undo) return;
  const label = UNDO_LABELS.find(([route, verb]) => verb === method && route.test(path))?.[2] ?? 'Memory changed.';
  for (const listener of [...undoListeners]) listener({ ...undo, label });
}

/** Calls `listener` with each correction that can be undone; returns the unsubscribe function. */
export function onUndoOffered(listener: (offer: UndoOffer) => void): () => void {
  undoListeners.add(listener);
  return () => {
    undoListeners.delete(listener);
  };
}

// ---- memory changes: the inspector corrects memory, the chat re-reads its messages (their marks)

const memoryListeners = new Set<() => void>();

/** Says that memory was corrected (a fact edited or deleted, everything forgotten). */
export function announceMemoryChanged(): void {
  for (const listener of [...memoryListeners]) listener();
}

/** Calls `listener` after each correction of memory; returns the unsubscribe function. */
export function onMemoryChanged(listener: () => void): () => void {
  memoryListeners.add(listener);
  return () => {
    memoryListeners.delete(listener);
  };
}

export const conversationsKey = ['conversations'] as const;
export const importsKey = ['imports'] as const;

/** Query keys of the memory views; `memoryKeys.all` invalidates every one of them. */
export const memoryKeys = {
  all: ['memory'] as const,
  turn: (messageId: string) => ['memory', 'turn', messageId] as const,
  summary: (conversationId: string) => ['memory', 'summary', conversationId] as const,
  facts: (scope: 'active' | 'all') => ['memory', 'facts', scope] as const,
  factsAll: ['memory', 'facts'] as const,
  fact: (id: string) => ['memory', 'fact', id] as const,
  turns: ['memory', 'turn'] as const,
  counts: ['memory', 'counts'] as const,
  /** What a reply's turn changed in memory (the notice under it). */
  replyChanges: (replyId: string) => ['memory', 'reply-changes', replyId] as const,
  /** The Memory page's fact search (under `factsAll`, so fact changes anywhere refresh it). */
  pageFacts: (scope: 'active' | 'all', q: string) => ['memory', 'facts', 'page', scope, q] as const,
  episodes: (q: string) => ['memory', 'episodes', q] as const,
  episodesAll: ['memory', 'episodes'] as const,
  /** The Memory page's list of recent changes (under `all`: any correction or undo refreshes it). */
  recentChanges: ['memory', 'recent-changes'] as const,
};
