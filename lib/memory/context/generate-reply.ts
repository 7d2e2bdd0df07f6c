import { streamText } from 'ai';
import type { TurnState } from './state';

/** Streams the reply from the chat model with exactly the assembled context. */
export function generateReply(state: TurnState, abortSignal: AbortSignal) {
  return streamText({
    model: state.models.chat,
    instructions: state.system,
    messages: state.messages,
    abortSignal,
    // A failed call is reported to the user, who can Retry; silent retries would only delay that.
    maxRetries: 0,
  });
}
