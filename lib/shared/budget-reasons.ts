/**
 * The budget's reasons for an item it does not send although there was room: the recent window sends
 * all of it, or another item sent says it already. The server writes them, the inspector reads them.
 */
export const IN_WINDOW_REASON = 'every message of it is sent in the recent window';

const ALREADY_SAID = 'already said by';

/** Why a repeat is set aside: all of it, or its user message, is said by an item that is sent (`by` names it). */
export function alreadySaidReason(part: 'whole' | 'message', by: string): string {
  return `${part === 'whole' ? 'it is' : 'its user message is'} ${ALREADY_SAID} ${by}`;
}

export const sentInWindow = (decision: { kept: boolean; reason?: string | null }) => !decision.kept && decision.reason === IN_WINDOW_REASON;

export const saidElsewhere = (decision: { kept: boolean; reason?: string | null }) =>
  !decision.kept && (decision.reason?.includes(` ${ALREADY_SAID} `) ?? false);
