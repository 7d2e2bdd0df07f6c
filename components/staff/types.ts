import type { Job } from '@/db/schema';
import type { auditPage } from '@/lib/services/audit-log';
import type { conversationForStaff, findUsers, jobsForStaff, userOverview } from '@/lib/staff';
import type { JsonResult } from '../json';

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
/** GET /api/staff/jobs: a job, with its conversation's title and its owner's email. */
export type StaffJob = JsonResult<typeof jobsForStaff>['jobs'][number];
export type StaffJobsPage = JsonResult<typeof jobsForStaff>;
/** GET /api/staff/jobs: a dead import, with its owner's email. */
export type StaffDeadImport = StaffJobsPage['imports'][number];

/** GET /api/staff/audit: an entry, with its actor's and target's emails as they are now. */
export type AuditEntry = JsonResult<typeof auditPage>[number];

/** The audit page's filter, as its form holds it. */
export type AuditFilter = {
  /** A user id or an email, as typed. */
  actorUserId?: string;
  /** A user id or an email, as typed. */
  targetUserId?: string;
  objectType?: string;
  action?: string;
  /** yyyy-mm-dd, inclusive */
  from?: string;
  /** yyyy-mm-dd, inclusive */
  to?: string;
};
