/** The budget's reason for an episode left out because the recent window sends all of it anyway (0 tokens). */
const IN_WINDOW_REASON = 'every message of it is sent in the recent window';
export const sentInWindow = (decision: { kept: boolean; reason?: string | null }) => !decision.kept && decision.reason === IN_WINDOW_REASON;
