import type {
  EmbeddingModelV4,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { countTokens } from 'gpt-tokenizer';
import { cosine } from './local-embedder';
import { answerFromContext, type Similarity } from './offline-answer';
import { textOf } from './offline-evidence';
import { URGENT_EMBEDDING } from './sentence-encoder';

export const OFFLINE_MODEL_ID = 'memlens-offline';

/**
 * The built-in offline language model: no network, no weights of its own. It answers a question with
 * the words of the evidence in its context that answer it best (offline-answer.ts), judged with the
 * embedder's likeness, so the whole app runs end to end without a key.
 */
export function createOfflineModel(options: { chunkDelayMs: number; embedding: EmbeddingModelV4 }): LanguageModelV4 {
  const similarity = likenessBy(options.embedding);
  return {
    specificationVersion: 'v4',
    provider: 'memlens-offline',
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(call) {
      const text = await answerFromContext(call.prompt, similarity);
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: usageOf(call, text),
        warnings: [],
      };
    },
    async doStream(call) {
      const text = await answerFromContext(call.prompt, similarity);
      const chunks = text.match(/\S+\s*/gu) ?? [text];
      const signal = call.abortSignal;
      let index = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'response-metadata', modelId: OFFLINE_MODEL_ID });
          controller.enqueue({ type: 'text-start', id: 'offline-text' });
        },
        async pull(controller) {
          if (signal?.aborted) {
            controller.error(signal.reason ?? new DOMException('Aborted', 'AbortError'));
            return;
          }
          if (index < chunks.length) {
            if (options.chunkDelayMs > 0 && index > 0) await sleep(options.chunkDelayMs);
            controller.enqueue({ type: 'text-delta', id: 'offline-text', delta: chunks[index++] });
            return;
          }
          controller.enqueue({ type: 'text-end', id: 'offline-text' });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: 'stop', raw: undefined },
            usage: usageOf(call, text),
          });
          controller.close();
        },
      });
      return { stream };
    },
  };
}

/** Cosine likeness of a question to texts, by the embedder's vectors. */
export function likenessBy(embedding: EmbeddingModelV4): Similarity {
  return async (question, texts) => {
    const { embeddings } = await embedding.doEmbed({ values: [question, ...texts], providerOptions: URGENT_EMBEDDING });
    const [asked, ...rest] = embeddings;
    return rest.map((vector) => cosine(vector, asked));
  };
}

function usageOf(call: LanguageModelV4CallOptions, output: string): LanguageModelV4Usage {
  const input = countTokens(call.prompt.map((m) => textOf(m.content)).join('\n'));
  const outputTokens = countTokens(output);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
