// What the model is told after a request to forget said in the chat: the outcome, never the thing.
// Pure, so the offline model can recognise it.

/** `done`: something was forgotten; else memory held nothing (left) that the request covers. */
export type ForgetInChat = { done: boolean };

/** What the model is told after the question, instead of what was forgotten: the outcome, and to confirm briefly. */
export const FORGET_DONE =
  'memlens has already deleted from its memory what the user asked to forget. Confirm briefly that it is forgotten; do not repeat, guess or ask about what it was.';
export const FORGET_NOTHING =
  'memlens holds nothing (any more) matching what the user asked to forget. Say so briefly; do not repeat, guess or ask about what it was.';

/** The question as the model is sent it after a request to forget: the user's words (their named part forgotten), then the outcome. */
export function withForgetOutcome(question: string, outcome: ForgetInChat): string {
  return `${question}\n\n(${outcome.done ? FORGET_DONE : FORGET_NOTHING})`;
}
