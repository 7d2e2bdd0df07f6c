import type { MessageMark } from '../types';

// What the staff API answers (app/api/staff/**), as the browser reads it: dates are ISO strings.

export type StaffUser = {
  id: string;
  kind: 'guest' | 'member';
  role: 'user' | 'staff';
  displayName: string | null;
  email: string | null;
  createdFrom: string | null;
  memoryFloorSeq: number;
  createdAt: string;
};

/** GET /api/staff/users?q= */
export type StaffUserRow = StaffUser & { conversations: number; facts: number };

export type StaffConversation = { id: string; userId: string; title: string; createdAt: string; updatedAt: string };

export type StaffFact = {
  id: string;
  userId: string;
  conversationId: string | null;
  slot: string;
  content: string;
  value: string;
  status: 'active' | 'superseded' | 'deleted';
  validFrom: string;
  validTo: string | null;
  supersededBy: string | null;
  createdAt: string;
  updatedAt: string;
  sources: Array<{ messageId: string; spanStart: number | null; spanEnd: number | null }>;
  sourceMessageIds: string[];
};

/** GET /api/staff/users/:id */
export type UserOverview = { user: StaffUser; conversations: StaffConversation[]; facts: StaffFact[] };

export type StaffMessage = {
  id: string;
  conversationId: string;
  userId: string;
  role: 'user' | 'assistant';
  content: string;
  status: 'streaming' | 'complete' | 'incomplete' | 'failed';
  error: string | null;
  model: string | null;
  replyTo: string | null;
  createdAt: string;
  marks: MessageMark[];
};

export type StaffSummary = {
  conversationId: string;
  content: string;
  version: number;
  coveredMessageCount: number;
  coveredUntilAt: string | null;
  floorSeq: number;
  updatedBy: string;
  updatedAt: string;
};

/** GET /api/staff/conversations/:id */
export type ConversationDetail = { conversation: StaffConversation; messages: StaffMessage[]; summary: StaffSummary | null };

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export type StaffJob = {
  id: string;
  kind: string;
  messageId: string;
  userId: string;
  conversationId: string;
  status: JobStatus;
  attempts: number;
  lastError: string | null;
  runAfter: string;
  createdAt: string;
  updatedAt: string;
};

export type AuditEntry = {
  id: number;
  at: string;
  actor: string;
  actorUserId: string | null;
  actorRole: string;
  targetUserId: string | null;
  objectType: string;
  objectId: string | null;
  action: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  requestId: string | null;
};

export type AuditFilter = {
  actorUserId?: string;
  targetUserId?: string;
  objectType?: string;
  action?: string;
  /** yyyy-mm-dd, inclusive */
  from?: string;
  /** yyyy-mm-dd, inclusive */
  to?: string;
};
