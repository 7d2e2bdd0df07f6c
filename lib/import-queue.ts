import { after } from 'next/server';
import { deleteConversation } from '@/db/conversations';
import {
  activeImportOf,
  claimImport,
  createImportConversation,
  finishImport,
  importOf,
  importsOf,
  insertImport,
  recordImportProgress,
  renewImportLease,
  uncountAttempt,
} from '@/db/imports';
import type { Import } from '@/db/schema';
import { getConfig } from './config';
import { DomainError, notFound } from './errors';
import { type ImportInput, importedMessages, ingestImport } from './import';
import { type ErrorSummary, logError, summarizeError } from './log';
import { wakeWorker } from './memory/jobs/worker-signal';

/** An import as the API shows it: no payload; the conversation once it is done. */
export type ImportView = {
  id: string;
  status: Import['status'];
  title: string | null;
  conversationId: string | null;
  messages: { total: number; stored: number };
  replies: { total: number; done: number };
  /** 0 to 1: messages stored and replies remembered, over both totals. */
  progress: number;
  jobs: { done: number; failed: number };
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
};

function viewOf(row: Import): ImportView {
  const steps = row.messagesTotal + row.repliesTotal;
  return {
    id: row.id,
    status: row.status,
    title: row.title,
    conversationId: row.status === 'done' ? row.conversationId : null,
    messages: { total: row.messagesTotal, stored: row.messagesStored },
    replies: { total: row.repliesTotal, done: row.repliesDone },
    progress: row.status === 'done' ? 1 : steps === 0 ? 0 : (row.messagesStored + row.repliesDone) / steps,
    jobs: { done: row.jobsDone, failed: row.jobsFailed },
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Accepts a validated import: stored as pending with its messages, to be run by a worker
 * (scheduleImports, or runDueImports in a script). One pending or running import per user: another
 * is refused (`import_in_progress`) naming it.
 */
export async function queueImport(userId: string, input: ImportInput): Promise<ImportView> {
  const row = await insertImport(userId, input.title, importedMessages(input));
  if (!row) {
    const active = await activeImportOf(userId);
    const where = active ? ` (${active.id}: ${active.messagesStored} of ${active.messagesTotal} messages stored)` : '';
    throw new DomainError('import_in_progress', `An import of yours is already in progress${where}. Send the next one when it is done.`);
  }
  return viewOf(row);
}

export async function getImport(userId: string, id: string): Promise<ImportView> {
  const row = await importOf(userId, id);
  if (!row) throw notFound('Import', id);
  return viewOf(row);
}

export async function listImports(userId: string): Promise<ImportView[]> {
  return (await importsOf(userId, 50)).map(viewOf);
}

/**
 * Claims the oldest due import and runs it to the end; false when none was due. Its lease is
 * renewed while it runs. On an error it is rolled back (its conversation and everything stored with
 * it deleted) and marked failed with the reason. A worker that stops (`signal`) or dies leaves it to
 * be resumed once its lease lapses; a stop between chunks does not count as an attempt, a death does.
 */
export async function runNextImport(signal?: AbortSignal): Promise<boolean> {
  const config = getConfig();
  const row = await claimImport({ leaseSeconds: config.JOB_LEASE_SECONDS, maxAttempts: config.JOB_MAX_ATTEMPTS });
  if (!row) return false;
  const heartbeat = setInterval(() => void renewImportLease(row.id).catch(() => {}), (config.JOB_LEASE_SECONDS * 1000) / 3);
  let conversationId = row.conversationId;
  try {
    conversationId ??= await createImportConversation(row);
    await ingestImport(
      { userId: row.userId, conversationId },
      row.payload ?? [],
      row,
      (executor, progress) => recordImportProgress(executor, row.id, progress),
      signal,
    );
    await finishImport(row.id, { status: 'done' });
  } catch (error) {
    if (signal?.aborted) {
      await uncountAttempt(row.id);
      return true;
    }
    logError('import failed', error);
    if (conversationId) await deleteConversation(row.userId, conversationId);
    await finishImport(row.id, { status: 'failed', error: `Nothing was imported: ${reasonOf(summarizeError(error))}` });
  } finally {
    clearInterval(heartbeat);
  }
  return true;
}

/** The innermost error's message, told as the log tells it (no query, no values: what a user wrote stays out). */
function reasonOf(summary: ErrorSummary): string {
  return summary.cause ? reasonOf(summary.cause) : summary.message;
}

/**
 * An import was queued: this process's worker runs it; without one (tests, scripts, an app whose
 * worker runs elsewhere) it runs after the response, as a reply's post-turn work does.
 */
export function scheduleImports(): void {
  if (wakeWorker()) return;
  const run = () => void runDueImports().catch((error) => logError('import failed', error));
  try {
    after(run);
  } catch {
    // Outside a Next request (tests, scripts): run on the next tick.
    setTimeout(run, 0);
  }
}

/** Runs due imports one after another until none is left. */
export async function runDueImports(): Promise<number> {
  let ran = 0;
  while (await runNextImport()) ran++;
  return ran;
}
