// What the model is told after a request to forget said in the chat: the outcome, never the thing.
// Pure, so the offline model can recognise it.

/** `done`: something was forgotten; else memory held nothing (left) that the request covers. */
export type ForgetInChat = { done: boolean };

/** What the model is told after the question, instead of what was forgotten: the outcome, and to confirm briefly. */
// Worded without pronouns or demonstratives, which would make the retrieval rewrite reach into the
// window for what they point at.
export const FORGET_DONE =
  'memlens has already deleted what the user asked to forget from memory. Reply with a short confirmation; do not repeat, guess or ask about the forgotten part.';
export const FORGET_NOTHING =
  'Nothing in memory matches what the user asked to forget (any more). Say so in one short sentence; do not repeat, guess or ask about the forgotten part.';

/** The question as the model is sent it after a request to forget: the user's words (their named part forgotten), then the outcome. */
export function withForgetOutcome(question: string, outcome: ForgetInChat): string {
  return `${question}\n\n(${outcome.done ? FORGET_DONE : FORGET_NOTHING})`;
}
