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

/**
 * The steps that assemble what the model sees, in order. A list inside the list is steps that run
 * at once: none reads what another writes, and what they add to the same lists goes in the order
 * given. The three recalls are sent together, so their reads cost one wait for the database, not
 * three. Adding a step: one file, one line here.
 */
const contextSteps: ReadonlyArray<Step | readonly Step[]> = [
  loadHistory,
  rewriteForRetrieval,
  embedQuery,
  [recallFacts, recallEpisodes, recallSummary],
  addNeighbours,
  fitToBudgetStep,
  assembleMessages,
];

const isGroup = (entry: Step | readonly Step[]): entry is readonly Step[] => Array.isArray(entry);

/** Steps run at once must not read what another of them writes or adds to. */
function assertIndependent(group: readonly Step[]) {
  for (const step of group) {
    const others = group.filter((other) => other !== step).flatMap((other) => [...other.writes, ...(other.appends ?? [])]);
    const shared = step.reads.filter((field) => others.includes(field));
    if (shared.length > 0) throw new Error(`step ${step.name} reads ${shared.join(', ')}, which a step run at the same time writes`);
  }
}

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
  for (const entry of contextSteps) {
    const group = (isGroup(entry) ? entry : [entry]).map((chained) => overrides[chained.name] ?? chained);
    assertIndependent(group);
    const started = performance.now();
    // Each of a group's steps reads the state as it stood before the group, and is timed from its start.
    const outputs = await Promise.all(
      group.map(async (step) => {
        const output = await step.run(readsOf(step, state));
        return { step, output: declared(step, output), ms: round(performance.now() - started) };
      }),
    );
    for (const { step, output, ms } of outputs)
      state = { ...merged(step, state, output), trace: [...state.trace, { step: step.name, ms }] };
  }
  return state;
}

/** What a step declared it reads, and only that. */
function readsOf(step: Step, state: TurnState): TurnState {
  return Object.fromEntries(step.reads.map((field) => [field, state[field]])) as TurnState;
}

/** A step's output, refused when it writes a field it did not declare. */
function declared(step: Step, output: Partial<TurnState>): Partial<TurnState> {
  const fields = [...step.writes, ...(step.appends ?? [])];
  const undeclared = Object.keys(output).filter((field) => !fields.includes(field as keyof TurnState));
  if (undeclared.length > 0) throw new Error(`step ${step.name} wrote ${undeclared.join(', ')}, which it does not declare`);
  return output;
}

/** The state with a step's output: the fields it writes replaced, its entries put after those of the lists it appends to. */
function merged(step: Step, state: TurnState, output: Partial<TurnState>): TurnState {
  const added = Object.fromEntries(
    (step.appends ?? []).filter((field) => field in output).map((field) => [field, [...state[field], ...(output[field] as unknown[])]]),
  );
  return { ...state, ...output, ...added };
}

export function round(ms: number) {
  return Math.round(ms * 100) / 100;
}
