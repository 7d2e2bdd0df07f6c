import type { ModelMessage } from 'ai';
import type { Scope } from '@/db/history';
import type { Message } from '@/db/schema';
import type { AppConfig } from '@/lib/config';
import type { Models } from '@/lib/llm';

export type StepTiming = { step: string; ms: number };

/**
 * One turn's state. Each step of the chain reads what it needs from here and returns what it adds;
 * nothing is threaded through parameters.
 */
export type TurnState = {
  scope: Scope;
  requestId: string;
  config: AppConfig;
  models: Models;
  /** The user message being answered, as stored. */
  question: Message;
  /** The placeholder row the reply streams into; its id is the id the client sees. */
  assistantMessageId: string;
  /** The recent window, oldest first, without the question. */
  history: Message[];
  /** Built afresh each turn, never stored as a message. */
  system: string;
  /** Exactly what is sent to the model after the system prompt. */
  messages: ModelMessage[];
  trace: StepTiming[];
};

export type Step = {
  name: string;
  run: (state: TurnState) => Partial<TurnState> | Promise<Partial<TurnState>>;
};

export type TurnInput = Pick<TurnState, 'scope' | 'requestId' | 'config' | 'models' | 'question' | 'assistantMessageId'>;
