import type { ModelMessage } from 'ai';
import type { Step } from './state';

/** The messages array sent to the model: the recent window, then the question. */
export const assembleMessages: Step = {
  name: 'assemble_messages',
  run({ history, question }) {
    const messages: ModelMessage[] = [...history, question].map((m) => ({ role: m.role, content: m.content }));
    return { messages };
  },
};
