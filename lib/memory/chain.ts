import { assembleMessages } from './assemble-messages';
import { buildSystemPrompt } from './build-system-prompt';
import { loadHistory } from './load-history';
import type { Step, TurnInput, TurnState } from './state';

/** The steps that assemble what the model sees, in order. Adding a step: one file, one line here. */
export const contextSteps: Step[] = [loadHistory, buildSystemPrompt, assembleMessages];

export async function assembleContext(input: TurnInput, steps: Step[] = contextSteps): Promise<TurnState> {
  let state: TurnState = { ...input, history: [], system: '', messages: [], trace: [] };
  for (const step of steps) {
    const started = performance.now();
    const output = await step.run(state);
    state = { ...state, ...output, trace: [...state.trace, { step: step.name, ms: round(performance.now() - started) }] };
  }
  return state;
}

function round(ms: number) {
  return Math.round(ms * 100) / 100;
}
