import { createOpenAI } from '@ai-sdk/openai';
import type { EmbeddingModelV4, LanguageModelV4 } from '@ai-sdk/provider';
import { type AppConfig, getConfig } from '@/lib/config';
import { languageMemoryModel, type MemoryModel, rulesMemoryModel } from '@/lib/memory/memory-model';
import { createLocalEmbedder } from './local-embedder';
import { createOfflineModel, OFFLINE_MODEL_ID } from './offline-model';
import { createSentenceEncoder } from './sentence-encoder';
import { embeddingModelWithTimeout, languageModelWithTimeout } from './timeouts';

export type Models = {
  chat: LanguageModelV4;
  /** The retrieval rewrite, fact extraction and the summary: the memory model, or offline the rules. */
  memoryModel: MemoryModel;
  embedding: EmbeddingModelV4;
  embeddingDimensions: number;
  chatModelId: string;
  offline: boolean;
};

let cached: { key: string; models: Models } | undefined;

/** The models chosen by the environment: any OpenAI-compatible endpoint, or the built-in offline pair. */
export function getModels(): Models {
  const config = getConfig();
  const key = JSON.stringify([
    config.OPENAI_API_KEY,
    config.OPENAI_BASE_URL,
    config.OPENAI_API_MODE,
    config.CHAT_MODEL,
    config.memoryModel,
    config.EMBEDDING_MODEL,
    config.EMBEDDING_DIMENSIONS,
    config.OFFLINE_STREAM_DELAY_MS,
    config.OFFLINE_EMBEDDER,
    config.EMBED_TIMEOUT_MS,
    config.MEMORY_MODEL_TIMEOUT_MS,
  ]);
  if (cached?.key === key) return cached.models;

  let models: Models;
  if (config.offline) {
    const embedding = builtInEmbedder(config);
    models = {
      // The offline model judges which evidence answers with the same embedder the memory searches with.
      chat: createOfflineModel({ chunkDelayMs: config.OFFLINE_STREAM_DELAY_MS, embedding }),
      memoryModel: rulesMemoryModel,
      embedding,
      embeddingDimensions: config.EMBEDDING_DIMENSIONS,
      chatModelId: OFFLINE_MODEL_ID,
      offline: true,
    };
  } else {
    const provider = createOpenAI({ apiKey: config.OPENAI_API_KEY, baseURL: config.OPENAI_BASE_URL });
    // Ollama, vLLM and LM Studio speak Chat Completions; the Responses API is opt-in.
    const languageModel = (id: string) => (config.OPENAI_API_MODE === 'responses' ? provider.responses(id) : provider.chat(id));
    // A hung memory model or embedder fails its call in time, wherever it is called from (the turn's
    // context or post-turn work). The chat model's deadlines depend on its tokens: see streamTurn.
    models = {
      chat: languageModel(config.CHAT_MODEL),
      memoryModel: languageMemoryModel(
        languageModelWithTimeout(languageModel(config.memoryModel), config.MEMORY_MODEL_TIMEOUT_MS, 'the memory model'),
      ),
      // No embedding model named (an endpoint that serves none): the built-in embedder.
      embedding: config.EMBEDDING_MODEL
        ? embeddingModelWithTimeout(provider.embedding(config.EMBEDDING_MODEL), config.EMBED_TIMEOUT_MS, 'the embedder')
        : builtInEmbedder(config),
      embeddingDimensions: config.EMBEDDING_DIMENSIONS,
      chatModelId: config.CHAT_MODEL,
      offline: false,
    };
  }
  cached = { key, models };
  return models;
}

/** The embedder of OFFLINE_EMBEDDER, run on this server. */
function builtInEmbedder(config: AppConfig): EmbeddingModelV4 {
  // No deadline on the sentence encoder: a bulk call (seeding, re-embedding a table) takes as long as its
  // texts need, and a thread that fails or dies fails its calls at once.
  return config.OFFLINE_EMBEDDER === 'hashing' ? createLocalEmbedder(config.EMBEDDING_DIMENSIONS) : createSentenceEncoder();
}
