import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { LRUCache } from 'lru-cache';
import type { AppConfig } from '@/lib/config';

export type Encoding = 'o200k_base' | 'cl100k_base';

/**
 * Chat framing of OpenAI's chat models, the same as gpt-tokenizer's encodeChat: each message costs
 * its content plus 4 tokens (<|im_start|>role<|im_sep|> … <|im_end|>), and the reply is primed with 3.
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;
export const REPLY_PRIMING_TOKENS = 3;

/**
 * Counts of the texts counted lately, one cache per encoding (keyed by the text itself, whose hash
 * V8 keeps): a conversation's window, the system prompt and the recalled items come back turn after
 * turn, and encoding is the costly part. Bounded by the characters they hold (about 8 MB at most each).
 */
const counted = {
  o200k_base: new LRUCache<string, number>({ maxSize: 4_000_000, sizeCalculation: (_, text) => Math.max(1, text.length) }),
  cl100k_base: new LRUCache<string, number>({ maxSize: 4_000_000, sizeCalculation: (_, text) => Math.max(1, text.length) }),
} satisfies Record<Encoding, LRUCache<string, number>>;

export function countTokens(text: string, encoding: Encoding): number {
  const cache = counted[encoding];
  let tokens = cache.get(text);
  if (tokens === undefined) {
    tokens = (encoding === 'cl100k_base' ? cl100k : o200k).countTokens(text);
    cache.set(text, tokens);
  }
  return tokens;
}

/** The tokens of a text in one encoding. */
export type TokenCounter = (text: string) => number;

/** Tokens of a whole messages array as the model receives it. */
export function countChatTokens(messages: Array<{ content: string }>, encoding: Encoding): number {
  return REPLY_PRIMING_TOKENS + messages.reduce((sum, m) => sum + MESSAGE_OVERHEAD_TOKENS + countTokens(m.content, encoding), 0);
}

/** Known context windows; anything else (local models) defaults to 8,192 unless configured. */
const KNOWN_WINDOWS: Array<[RegExp, number]> = [
  [/^gpt-4o|^gpt-4\.1|^gpt-5|^o[134]/u, 128_000],
  [/^gpt-4-turbo/u, 128_000],
  [/^gpt-3\.5-turbo/u, 16_385],
  [/^deepseek/u, 64_000],
];

export type ModelLimits = { contextWindow: number; reservedOutput: number; encoding: Encoding; budget: number };

/** Budget = (context window − reserved output) × safety, each configurable per model; CONTEXT_BUDGET overrides. */
export function modelLimits(config: AppConfig, modelId: string): ModelLimits {
  const perModel = config.MODEL_LIMITS[modelId] ?? {};
  const contextWindow =
    perModel.contextWindow ?? config.MODEL_CONTEXT_WINDOW ?? KNOWN_WINDOWS.find(([pattern]) => pattern.test(modelId))?.[1] ?? 8_192;
  const reservedOutput = perModel.reservedOutput ?? config.MODEL_RESERVED_OUTPUT;
  const encoding = perModel.encoding ?? config.TOKENIZER_ENCODING;
  const budget = config.CONTEXT_BUDGET ?? Math.floor((contextWindow - reservedOutput) * config.BUDGET_SAFETY);
  return { contextWindow, reservedOutput, encoding, budget };
}
