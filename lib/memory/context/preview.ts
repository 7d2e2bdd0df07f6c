import type { Scope } from '@/db/history';
import { getConfig } from '@/lib/config';
import { getModels } from '@/lib/llm';
import { assembleContext } from './chain';
import type { TurnState } from './state';

/** Assembles the context a message would get, without storing it or generating: for evals and benchmarks. */
export function previewContext(scope: Scope, text: string, now = new Date()): Promise<TurnState> {
  return assembleContext({
    scope,
    requestId: crypto.randomUUID(),
    config: getConfig(),
    models: getModels(),
    question: { id: crypto.randomUUID(), content: text, createdAt: now },
    assistantMessageId: crypto.randomUUID(),
    attempt: 1,
    now,
  });
}

/** Everything the model would read, as one text: the system prompt and every message. */
export function contextText(state: TurnState): string {
  return [state.system, ...state.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))].join('\n');
}
