import type { SummaryResponse } from '../api-types';
import { plural } from '../ui/format';

type Schedule = SummaryResponse['schedule'];

const range = ({ from, to }: { from: number; to: number }) => (from === to ? `message ${from}` : `messages ${from}–${to}`);

/** What the summary stands for now, in message numbers, and what is sent as written. */
function coverageText(schedule: Schedule): string {
  if (schedule.messages === 0) return 'No messages yet.';
  const raw =
    schedule.messages <= schedule.keepRaw
      ? `all ${plural(schedule.messages, 'message')} so far ${schedule.messages === 1 ? 'is' : 'are'} sent as written`
      : `the last ${plural(schedule.keepRaw, 'message is', 'messages are')} sent as written`;
  const sentence = schedule.covers ? `Covers ${range(schedule.covers)}; ${raw}.` : `${raw}.`;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** When the next version is written and what it will cover, as the refresh job will do it. */
function nextSummaryText(schedule: Schedule, hasSummary: boolean): string {
  const { moreMessages, covers } = schedule.next;
  const which = hasSummary ? 'The next version' : 'The first summary';
  const when = moreMessages === 0 ? 'is being written now' : `comes after ${plural(moreMessages, 'more message')}`;
  return `${which} ${when} and will cover ${range(covers)}.`;
}

/** The schedule under the summary: what it covers and when the next version comes. */
export function SummaryScheduleNote({ schedule, hasSummary }: { schedule: Schedule; hasSummary: boolean }) {
  return (
    <p data-testid="summary-schedule" className="text-xs leading-5 text-muted">
      <span data-testid="summary-covers">{coverageText(schedule)}</span>{' '}
      <span data-testid="summary-next">{nextSummaryText(schedule, hasSummary)}</span>
    </p>
  );
}
