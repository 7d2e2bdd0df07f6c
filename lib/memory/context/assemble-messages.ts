import type { ModelMessage } from 'ai';
import { renderSystemPrompt } from './context-layout';
import { step } from './state';

/** The system prompt (configuration + numbered memory) and the messages: kept recent window, then the question. */
export const assembleMessages = step({
  name: 'assemble_messages',
  reads: ['config', 'numbered', 'keptHistory', 'question'],
  writes: ['system', 'messages'],
  run({ config, numbered, keptHistory, question }) {
    const messages: ModelMessage[] = [
      ...keptHistory.map((item): ModelMessage => ({ role: item.role, content: item.text })),
      { role: 'user', content: question.content },
    ];
    return { system: renderSystemPrompt(config, numbered), messages };
  },
});
