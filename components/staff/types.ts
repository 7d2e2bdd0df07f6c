import type { AuditEntry as AuditRow, Job } from '@/db/schema';
import type { conversationForStaff, findUsers, userOverview } from '@/lib/staff';
import type { Json, JsonResult } from '../json';

// What the staff API answers (app/api/staff/**), as the browser reads it: the server's own types, dates as ISO strings.

/** GET /api/staff/users?q= */
export type StaffUserRow = JsonResult<typeof findUsers>[number];

/** GET /api/staff/users/:id */
export type UserOverview = JsonResult<typeof userOverview>;
export type StaffConversation = UserOverview['conversations'][number];
export type StaffFact = UserOverview['facts'][number];

/** GET /api/staff/conversations/:id */
export type ConversationDetail = JsonResult<typeof conversationForStaff>;
export type StaffMessage = ConversationDetail['messages'][number];
export type StaffSummary = NonNullable<ConversationDetail['summary']>;

export type JobStatus = Job['status'];
export type StaffJob = Json<Job>;

export type AuditEntry = Json<AuditRow>;

/** The audit page's filter, as its form holds it. */
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
