import { getDb } from '@/db/client';
import { listConversations } from '@/db/conversations';
import { listFacts, withSources } from '@/db/facts';
import { deadImport, deadImports, reviveImport } from '@/db/imports';
import { resetJobs } from '@/db/jobs';
import type { Job, User } from '@/db/schema';
import {
  conversationById,
  countJobs,
  getJob,
  getUser,
  listJobs,
  locateMessage,
  ownerOfFact,
  ownerOfMessage,
  searchUsers,
} from '@/db/staff';
import { getSummary } from '@/db/summaries';
import { audit, auditEach, auditReadInView, staffActor, userActor } from './audit';
import { DomainError, notFound } from './errors';
import { scheduleImports } from './import-queue';
import { type ReplayOptions, replayTurn } from './memory/context/replay';
import { type ItemRef, whyNotRecalled } from './memory/context/why-not-recalled';
import { clearSummary, correctFact, forgetFacts } from './memory/corrections';
import { runDueJobs } from './memory/jobs/queue';
import { conversationMessages } from './services/messages';
import { STAFF_VIEW_HEADER } from './shared/staff-header';
import { isUuid } from './shared/uuid';
import { turnContext } from './turn-context';
import { strictObject, text } from './validation';

/**
 * The staff console's reads and edits. Staff see any user's data: every read of another user's
 * data and every edit is written to the audit log; edits ask for a reason and go through the same
 * correction mechanism as the user's own.
 */
export type Staff = { user: User; request: Request };

/** Every staff edit says why. */
const whyText = text().trim().min(3, 'must say why (at least 3 characters)').max(500, 'is longer than 500 characters');
export const reasonSchema = strictObject({ reason: whyText });
/** A staff edit of a fact: the new text and why. */
export const staffFactEditSchema = strictObject({
  content: text().trim().min(1, 'must not be empty').max(2000, 'is longer than 2000 characters'),
  reason: whyText,
});

/**
 * A staff read of another user's data, audited: once per view when the console names the view the
 * read belongs to (a page, or one turn record opened on it, loads several routes), else on its own.
 */
async function read(staff: Staff, targetUserId: string, objectType: string, objectId: string) {
  if (targetUserId === staff.user.id) return;
  const actor = userActor(staff.user, staff.request);
  const view = staff.request.headers.get(STAFF_VIEW_HEADER);
  if (view && isUuid(view)) await auditReadInView(actor, targetUserId, { objectType, objectId }, view.toLowerCase());
  else await audit(actor, targetUserId, [{ objectType, objectId, action: 'read', before: null, after: null }]);
}

export async function findUsers(staff: Staff, q: string) {
  const found = await searchUsers(q);
  await audit(userActor(staff.user, staff.request), staff.user.id, [
    { objectType: 'user_search', objectId: null, action: 'read', before: null, after: { q, results: found.length } },
  ]);
  return found;
}

export async function userOverview(staff: Staff, userId: string) {
  const user = await getUser(userId);
  if (!user) throw notFound('User', userId);
  await read(staff, userId, 'user', userId);
  return {
    user,
    conversations: await listConversations(userId),
    facts: await withSources(userId, await listFacts(userId)),
  };
}

export async function conversationForStaff(staff: Staff, conversationId: string) {
  const conversation = await conversationById(conversationId);
  if (!conversation) throw notFound('Conversation', conversationId);
  await read(staff, conversation.userId, 'conversation', conversationId);
  const scope = { userId: conversation.userId, conversationId };
  const owner = await getUser(conversation.userId);
  return {
    conversation,
    // Who it belongs to, named as staff know them (a guest has no email).
    owner: { email: owner?.email ?? null, kind: owner?.kind ?? 'guest', name: owner?.displayName ?? null },
    messages: await conversationMessages(scope),
    summary: (await getSummary(scope)) ?? null,
  };
}

export async function messageLocationForStaff(staff: Staff, messageId: string) {
  const location = await locateMessage(messageId);
  if (!location) throw notFound('Message', messageId);
  await read(staff, location.userId, 'message', messageId);
  return location;
}

export async function turnForStaff(staff: Staff, messageId: string) {
  const owner = await ownerOfMessage(messageId);
  if (!owner) throw notFound('Message', messageId);
  await read(staff, owner, 'turn_record', messageId);
  return turnContext(owner, messageId);
}

export async function replayForStaff(staff: Staff, messageId: string, options: ReplayOptions) {
  const owner = await ownerOfMessage(messageId);
  if (!owner) throw notFound('Message', messageId);
  await read(staff, owner, 'turn_replay', messageId);
  return replayTurn({ userId: owner }, messageId, options);
}

/** Why one of the user's memory items was or was not in a reply's context (audited as a read of the turn). */
export async function whyNotRecalledForStaff(staff: Staff, messageId: string, item: ItemRef) {
  const owner = await ownerOfMessage(messageId);
  if (!owner) throw notFound('Message', messageId);
  await read(staff, owner, 'turn_why', messageId);
  return whyNotRecalled(owner, messageId, item);
}

export async function editFactAsStaff(staff: Staff, factId: string, content: string, reason: string) {
  const owner = await ownerOfFact(factId);
  if (!owner) throw notFound('Fact', factId);
  const edited = await correctFact(owner, factId, content, staffActor(staff.user, staff.request, reason));
  if (!edited) throw notFound('Fact', factId);
  return (await withSources(owner, [edited.fact]))[0];
}

export async function deleteFactAsStaff(staff: Staff, factId: string, reason: string) {
  const owner = await ownerOfFact(factId);
  if (!owner) throw notFound('Fact', factId);
  return forgetFacts(owner, [factId], staffActor(staff.user, staff.request, reason), `fact deleted (“${reason}”)`);
}

export async function clearSummaryAsStaff(staff: Staff, conversationId: string, reason: string) {
  const conversation = await conversationById(conversationId);
  if (!conversation) throw notFound('Conversation', conversationId);
  return clearSummary({ userId: conversation.userId, conversationId }, staffActor(staff.user, staff.request, reason));
}

const JOBS_PAGE = 100;
/** Dead imports listed with the jobs: few, as each is a user's whole import that stopped for good. */
const DEAD_IMPORTS = 50;

/**
 * Jobs with their failures, which tell of what a user's turn held, and the dead imports: a read of
 * each listed owner's data (and of the user asked for, when none is listed), audited as one entry per user.
 */
export async function jobsForStaff(staff: Staff, filter: { status?: Job['status']; userId?: string; before?: number }) {
  const jobs = await listJobs({ status: filter.status, userId: filter.userId, beforeSeq: filter.before }, JOBS_PAGE);
  // The dead imports head the first page of the list that would hold them.
  const firstPage = !filter.before && (!filter.status || filter.status === 'dead');
  const imports = (firstPage ? await deadImports(DEAD_IMPORTS, filter.userId) : []).map(importForStaff);
  const owners = new Set([...(filter.userId ? [filter.userId] : []), ...jobs.map((job) => job.userId), ...imports.map((i) => i.userId)]);
  owners.delete(staff.user.id);
  const reads = [...owners].map((owner) => ({
    targetUserId: owner,
    objectType: 'jobs',
    objectId: owner,
    action: 'read',
    before: null,
    after: null,
  }));
  if (reads.length > 0) await auditEach(userActor(staff.user, staff.request), reads);
  // The next page starts below the last job shown (keyset by enqueue order, steady while jobs run).
  const next = jobs.length === JOBS_PAGE ? jobs[jobs.length - 1].seq : null;
  return { jobs, imports, counts: await countJobs(filter.userId), next };
}

/** A dead import as the console shows it: its progress and why it stopped, not its messages. */
function importForStaff(row: Awaited<ReturnType<typeof deadImports>>[number]) {
  const { payload: _payload, ...rest } = row;
  return rest;
}

/** Runs a failed or dead job again now (attempts reset), and returns it as it ended. */
export async function retryJob(staff: Staff, jobId: string) {
  const job = await getJob(jobId);
  if (!job) throw notFound('Job', jobId);
  await resetJobs(getDb(), job.userId, job.messageId, job.kind);
  await audit(userActor(staff.user, staff.request), job.userId, [
    {
      objectType: 'job',
      objectId: jobId,
      action: 'retry',
      before: { status: job.status, attempts: job.attempts, lastError: job.lastError },
      after: null,
    },
  ]);
  await runDueJobs({ messageId: job.messageId });
  return getJob(jobId);
}

/**
 * Queues a dead import again, its attempts from zero: the worker resumes it from its counts. Refused
 * while its owner has another import pending or running (one at a time).
 */
export async function retryImport(staff: Staff, importId: string) {
  const row = await deadImport(importId);
  if (!row) throw notFound('Dead import', importId);
  if (!(await reviveImport(importId)))
    throw new DomainError('import_in_progress', 'Its owner has another import pending or running: retry this one when that one is done.');
  await audit(userActor(staff.user, staff.request), row.userId, [
    {
      objectType: 'import',
      objectId: importId,
      action: 'retry',
      before: { status: row.status, attempts: row.attempts, error: row.error },
      after: null,
    },
  ]);
  scheduleImports();
  return { id: importId, status: 'pending' as const };
}
