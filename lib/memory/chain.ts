import { assembleMessages } from './assemble-messages';
import { embedQuery } from './embed-query';
import { fitToBudgetStep } from './fit-to-budget';
import { loadHistory } from './load-history';
import { recallEpisodes } from './recall-episodes';
import { recallFacts } from './recall-facts';
import { recallSummary } from './recall-summary';
import { rewriteForRetrieval } from './rewrite-for-retrieval';
import type { Step, TurnInput, TurnState } from './state';

/** The steps that assemble what the model sees, in order. Adding a step: one file, one line here. */
export const contextSteps: Step[] = [
  loadHistory,
  rewriteForRetrieval,
  embedQuery,
  recallFacts,
  recallEpisodes,
  recallSummary,
  fitToBudgetStep,
  assembleMessages,
];

export async function assembleContext(input: TurnInput, steps: Step[] = contextSteps): Promise<TurnState> {
  let state: TurnState = {
    now: new Date(),
    ...input,
    history: [],
    retrieval: { query: input.question.content, reason: 'not run', rewritten: false, cached: false, datesResolved: [] },
    queryEmbedding: [],
    candidates: [],
    runs: [],
    summaryVersion: null,
    summaryCovers: [],
    budget: null,
    numbered: [],
    keptHistory: [],
    system: '',
    messages: [],
    warnings: [],
    trace: [],
  };
  for (const step of steps) {
    const started = performance.now();
    const output = await step.run(state);
    state = { ...state, ...output, trace: [...state.trace, { step: step.name, ms: round(performance.now() - started) }] };
  }
  return state;
}

export function round(ms: number) {
  return Math.round(ms * 100) / 100;
}
