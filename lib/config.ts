import { z } from 'zod';

/**
 * Every setting the app reads from the environment, with its default.
 * README's configuration table is generated from the same names: keep them in step.
 */
const int = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

const envSchema = z.object({
  DATABASE_URL: optionalText,
  DB_POOL_MAX: int(10),

  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalText,
  OPENAI_API_MODE: z.enum(['chat', 'responses']).default('chat'),
  CHAT_MODEL: z.string().default('gpt-4o-mini'),
  MEMORY_MODEL: optionalText,
  EMBEDDING_MODEL: z.string().default('text-embedding-3-small'),
  EMBEDDING_DIMENSIONS: int(512),
  OFFLINE_STREAM_DELAY_MS: int(25),

  HISTORY_WINDOW: int(20),
  MAX_MESSAGE_CHARS: int(32_000),
  SYSTEM_PROMPT: z
    .string()
    .default('You are memlens, a helpful assistant. Answer clearly and concisely.'),
});

export type AppConfig = z.infer<typeof envSchema> & {
  /** The memory model defaults to the chat model. */
  memoryModel: string;
  /** True when no API key is set: the built-in offline model and local embedder are used. */
  offline: boolean;
};

let cached: AppConfig | undefined;

export function getConfig(): AppConfig {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
  }
  const env = parsed.data;
  cached = { ...env, memoryModel: env.MEMORY_MODEL ?? env.CHAT_MODEL, offline: !env.OPENAI_API_KEY };
  return cached;
}

/** Tests change the environment between cases; this makes the next read see it. */
export function resetConfigForTests(): void {
  cached = undefined;
}
