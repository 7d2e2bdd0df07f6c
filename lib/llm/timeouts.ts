import type { EmbeddingModelV4, LanguageModelV4 } from '@ai-sdk/provider';
import { wrapEmbeddingModel, wrapLanguageModel } from 'ai';

/**
 * A model call that took longer than it may: the reason its abort signal carries. Named like the
 * reason of AbortSignal.timeout, so fetch and the AI SDK treat it as an abort and never retry it.
 */
export class ModelTimeoutError extends Error {
  override name = 'TimeoutError';
}

export function isModelTimeout(error: unknown): error is ModelTimeoutError {
  return error instanceof ModelTimeoutError;
}

/** "300 ms", "30 s". */
function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Each call of the model (each attempt, when the SDK retries) is aborted after `ms` with a ModelTimeoutError. */
export function languageModelWithTimeout(model: LanguageModelV4, ms: number, name: string): LanguageModelV4 {
  return wrapLanguageModel({
    model,
    middleware: { transformParams: async ({ params }) => ({ ...params, abortSignal: withDeadline(params.abortSignal, ms, name) }) },
  });
}

export function embeddingModelWithTimeout(model: EmbeddingModelV4, ms: number, name: string): EmbeddingModelV4 {
  return wrapEmbeddingModel({
    model,
    middleware: { transformParams: async ({ params }) => ({ ...params, abortSignal: withDeadline(params.abortSignal, ms, name) }) },
  });
}

function withDeadline(signal: AbortSignal | undefined, ms: number, name: string): AbortSignal {
  const controller = new AbortController();
  // Like AbortSignal.timeout's timer, it never keeps the process alive; firing after the call is harmless.
  setTimeout(() => controller.abort(new ModelTimeoutError(`${name} did not answer within ${formatMs(ms)}`)), ms).unref();
  return signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
}

/**
 * The chat reply's two deadlines: the first token within `firstTokenMs` of the call (connecting
 * and the response headers included), then each next token within `idleMs` of the one before.
 * `signal` aborts the call when one passes, with a ModelTimeoutError that says which.
 */
export class ReplyDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private answering = false;
  readonly signal = this.controller.signal;

  constructor(private readonly limits: { firstTokenMs: number; idleMs: number }) {}

  /** The call starts: its first token is due. */
  start(): void {
    this.arm(this.limits.firstTokenMs, `The model did not start answering within ${formatMs(this.limits.firstTokenMs)}.`);
  }

  /** A token came: the next one is due within the idle time. */
  token(): void {
    if (this.answering) {
      this.timer?.refresh();
      return;
    }
    this.answering = true;
    this.arm(this.limits.idleMs, `The model stopped answering: nothing came for ${formatMs(this.limits.idleMs)}.`);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /** The timeout that ended the call, if one did. */
  get expired(): ModelTimeoutError | undefined {
    return this.signal.aborted ? (this.signal.reason as ModelTimeoutError) : undefined;
  }

  private arm(ms: number, message: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(new ModelTimeoutError(message)), ms);
  }
}
