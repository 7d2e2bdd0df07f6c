/**
 * Corrections of memory: one mechanism behind every path (docs/corrections.md).
 *
 * 1. Decide what is corrected away: spans of messages (a fact's statement and where replies quoted
 *    or cited it), facts that lose their last source, a summary's clear point, a user's memory floor.
 * 2. Record it as data: message redactions, fact status, floors.
 * 3. Retire what was derived from the touched messages (their episodes' text taken out, summaries emptied,
 *    the rewrite cache dropped) and queue jobs that derive it again: episodes re-indexed, summaries
 *    rebuilt (both read messages with their redactions applied), outside the request.
 * 4. Deletions redact the turn records that quoted the deleted text (the audit trail stays).
 */

export { correctFact, correctFacts, forgetEpisode, forgetFacts } from './facts';
export { removeMessages } from './messages';
export { clearSummary, editSummary, forgetEverything } from './summary';
