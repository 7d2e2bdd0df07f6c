import { addNeighbours } from './add-neighbours';
import { assembleMessages } from './assemble-messages';
import { embedQuery } from './embed-query';
import { fitToBudgetStep } from './fit-to-budget';
import { loadHistory } from './load-history';
import { recallEpisodes } from './recall-episodes';
import { recallFacts } from './recall-facts';
import { recallSummary } from './recall-summary';
import { rewriteForRetrieval } from './rewrite-for-retrieval';
import type { Step, StepName, TurnInput, TurnState } from './state';

/** The steps that assemble what the model sees, in order. Adding a step: one file, one line here. */
const contextSteps: readonly Step[] = [
  loadHistory,
  rewriteForRetrieval,
  embedQuery,
  recallFacts,
  recallEpisodes,
  addNeighbours,
  recallSummary,
  fitToBudgetStep,
  assembleMessages,
];

/** Steps to run instead of the chain's own of the same name (replay's window as it stood at the turn). */
export type StepOverrides = Partial<Record<StepName, Step>>;

export async function assembleContext(input: TurnInput, overrides: StepOverrides = {}): Promise<TurnState> {
  let state: TurnState = {
    now: new Date(),
    ...input,
    history: [],
    retrieval: { query: input.question.content, reason: 'not run', rewritten: false, cached: false, datesResolved: [] },
    queryEmbedding: [],
    candidates: [],
    episodesTopK: 0,
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
  for (const chained of contextSteps) {
    const step = overrides[chained.name] ?? chained;
    const started = performance.now();
    const output = await step.run(readsOf(step, state));
    state = { ...state, ...writesOf(step, output), trace: [...state.trace, { step: step.name, ms: round(performance.now() - started) }] };
  }
  return state;
}

/** What a step declared it reads, and only that. */
function readsOf(step: Step, state: TurnState): TurnState {
  return Object.fromEntries(step.reads.map((field) => [field, state[field]])) as TurnState;
}

/** A step's output, refused when it writes a field it did not declare. */
function writesOf(step: Step, output: Partial<TurnState>): Partial<TurnState> {
  const undeclared = Object.keys(output).filter((field) => !step.writes.includes(field as keyof TurnState));
  if (undeclared.length > 0) throw new Error(`step ${step.name} wrote ${undeclared.join(', ')}, which it does not declare`);
  return output;
}

export function round(ms: number) {
  return Math.round(ms * 100) / 100;
}
