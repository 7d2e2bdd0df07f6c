/**
 * Worker-thread entry of the rules (lib/memory/rules/bounded.ts starts it through piscina): every
 * rule that reads what a user wrote runs here, never on the server's event loop, so a text that
 * makes a pattern slow costs this thread, which the pool stops when the text's time is up.
 * The task's port says when the rule starts, so the budget counts the rule, not the queue.
 */
import type { MessagePort } from 'node:worker_threads';
import {
  asksForMany,
  asksSomething,
  asksWhatHappened,
  decideFactUpdate,
  detectForgetRequest,
  extractFactCandidates,
  factsToForget,
  slotsNamed,
} from './facts';
import { forgetRequestObject } from './forget';
import { absolutizeRelativeDates } from './relative-dates';
import { detectRewriteTrigger, rewriteOffline } from './rewrite';
import { subjectsOf } from './subject';
import { summariseExtractive } from './summarise';
import { numbersHeld, valueAsked } from './value-asked';

export const RULES = {
  absolutizeRelativeDates,
  asksForMany,
  asksSomething,
  asksWhatHappened,
  decideFactUpdate,
  detectForgetRequest,
  detectRewriteTrigger,
  extractFactCandidates,
  factsToForget,
  forgetRequestObject,
  numbersHeld,
  rewriteOffline,
  slotsNamed,
  subjectsOf,
  summariseExtractive,
  valueAsked,
};

export type Rules = typeof RULES;
export type RuleName = keyof Rules;
/** `started` is told when the rule starts: the caller's budget counts from then. */
export type RuleTask = { rule: RuleName; args: unknown[]; started?: MessagePort };

// Each rule once on a short text of each language as the thread starts (piscina sends no task
// before this module has loaded): what the rules build on their first use (the tagger's lexicon,
// the date parsers) is not counted against the first user's text.
const warmUp = new Date(0);
for (const text of ['My sister lives in Porto and I work as a nurse since last May.', '我住在上海，我是老师。']) {
  extractFactCandidates(text, warmUp);
  rewriteOffline(text, [{ role: 'user', content: text }], warmUp);
  summariseExtractive(null, [{ role: 'user', content: text }]);
  detectForgetRequest(text);
}

export default function runRule({ rule, args, started }: RuleTask): unknown {
  started?.postMessage(null);
  started?.close();
  return (RULES[rule] as (...args: unknown[]) => unknown)(...args);
}
