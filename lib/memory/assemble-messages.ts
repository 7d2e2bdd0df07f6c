import type { ModelMessage } from 'ai';
import { renderSystemPrompt } from './context-layout';
import type { Step } from './state';

/** The system prompt (configuration + numbered memory) and the messages: kept recent window, then the question. */
export const assembleMessages: Step = {
  name: 'assemble_messages',
  run({ config, numbered, keptHistory, question }) {
    const messages: ModelMessage[] = [
      ...keptHistory.map((item) => ({ role: item.role!, content: item.text }) as ModelMessage),
      { role: 'user', content: question.content },
    ];
    return { system: renderSystemPrompt(config, numbered), messages };
  },
};
