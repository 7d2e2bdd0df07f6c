/**
 * Offline, rule-based fact memory (the mem0 idea without an LLM), English and Chinese:
 * extract candidate facts from a user message, reconcile each with the user's active facts
 * (ADD / UPDATE / DELETE / NONE), and handle "forget …" requests. Pure functions throughout.
 */

export { asksForMany, asksSomething, asksWhatHappened, extractFactCandidates } from './fact-extract';
export { decideFactUpdate } from './fact-reconcile';
export type { ExistingFact, FactCandidate, FactDecision, FactSlot, ForgetRequest } from './fact-types';
export { detectForgetRequest, factsToForget, slotsNamed } from './forget';
