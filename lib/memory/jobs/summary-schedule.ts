import { listMessages, type Scope } from '@/db/history';
import { coveredUntil, getSummary } from '@/db/summaries';
import { memoryFloor } from '@/db/users';
import type { AppConfig } from '@/lib/config';
import { readFromDatabase } from './summary-reader';

type SummaryRules = Pick<AppConfig, 'SUMMARY_START_MESSAGES' | 'SUMMARY_REFRESH_MESSAGES' | 'SUMMARY_KEEP_RAW'>;

/**
 * When the next summary version is due: the number of messages since the clear point the
 * conversation must hold. The summary stands only for messages older than the last
 * SUMMARY_KEEP_RAW (by default the recent window, which sends those as they are), and every version,
 * the first too, covers at least SUMMARY_REFRESH_MESSAGES more of them, so a summary is never
 * written for one or two messages; the first also waits for SUMMARY_START_MESSAGES. `covered`
 * counts the messages since the clear point the summary already stands for. The refresh job and
 * the schedule the UI shows both read this.
 */
export function nextSummaryAt(config: SummaryRules, { started, covered }: { started: boolean; covered: number }): number {
  const batch = Math.max(1, config.SUMMARY_REFRESH_MESSAGES);
  return Math.max(started ? 0 : config.SUMMARY_START_MESSAGES, covered + config.SUMMARY_KEEP_RAW + batch);
}

/** Message numbers as the chat shows them, 1 being the conversation's first. */
type MessageRange = { from: number; to: number };

export type SummarySchedule = {
  /** Messages in the conversation. */
  messages: number;
  /** The newest messages no summary ever covers. */
  keepRaw: number;
  /** The messages the current summary stands for; null when it covers none. */
  covers: MessageRange | null;
  /** The next version: written with the reply that brings the conversation to `atMessage`. */
  next: {
    /** Messages still to come (0: due now, waiting for the latest reply's jobs). */
    moreMessages: number;
    atMessage: number;
    /** What it will cover, the current summary's messages included. */
    covers: MessageRange;
  };
};

/**
 * The schedule of a conversation's summary as the refresh job will follow it. The job runs after
 * each reply, so in a conversation that alternates the next version is counted in whole exchanges.
 */
export async function summaryScheduleOf(scope: Scope, config: SummaryRules): Promise<SummarySchedule> {
  const [all, summary, userFloor] = await Promise.all([listMessages(scope), getSummary(scope), memoryFloor(scope.userId)]);
  const floorSeq = Math.max(summary?.floorSeq ?? 0, userFloor);
  const { fresh } = await readFromDatabase(scope).forSummary({ after: coveredUntil(summary), floorSeq, upTo: null, keepRaw: 0 });
  const since = all.flatMap((message, i) => (message.seq > floorSeq ? [i + 1] : []));
  const covered = since.length - fresh.length;
  const started = Boolean(summary?.content);
  const dueAt = nextSummaryAt(config, { started, covered });

  const count = since.length;
  const awaitingReply = all.at(-1)?.role === 'user';
  const firstReply = count + (awaitingReply ? 1 : 2);
  const writtenAt = count >= dueAt && !awaitingReply ? count : firstReply + 2 * Math.ceil(Math.max(0, dueAt - firstReply) / 2);
  // Numbers of messages since the clear point, existing or still to come.
  const numberOf = (nth: number) => (nth <= count ? since[nth - 1] : all.length + nth - count);
  return {
    messages: all.length,
    keepRaw: config.SUMMARY_KEEP_RAW,
    covers: covered > 0 ? { from: numberOf(1), to: numberOf(covered) } : null,
    next: {
      moreMessages: writtenAt - count,
      atMessage: numberOf(writtenAt),
      covers: { from: numberOf(1), to: numberOf(writtenAt - config.SUMMARY_KEEP_RAW) },
    },
  };
}
