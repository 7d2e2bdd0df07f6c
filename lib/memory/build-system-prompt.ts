import type { Step } from './state';

/** The system prompt, built from configuration each turn. */
export const buildSystemPrompt: Step = {
  name: 'build_system_prompt',
  run({ config }) {
    return { system: config.SYSTEM_PROMPT };
  },
};
