import { z } from 'zod';
import { databaseEnvSchema } from '@/db/settings';
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies';

/**
 * Every setting the app reads from the environment, with its default.
 * docs/configuration.md lists the same names: keep them in step.
 */
const int = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
// Positive, and within what a timer can hold (a larger delay would fire at once).
const ms = (fallback: number) => z.coerce.number().int().positive().max(2_147_483_647).default(fallback);
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((value) => (value === undefined || value === '' ? fallback : ['true', '1', 'yes'].includes(value)));

const json = <T extends z.ZodType>(schema: T, fallback: z.infer<T>) =>
  z
    .string()
    .optional()
    .transform((value, ctx): z.infer<T> => {
      if (!value?.trim()) return fallback;
      try {
        return schema.parse(JSON.parse(value));
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `is not valid JSON of the documented shape: ${error instanceof Error ? error.message : error}`,
        });
        return z.NEVER;
      }
    });

const modelLimitsSchema = z.record(
  z.string(),
  z.object({
    contextWindow: z.number().int().positive().optional(),
    reservedOutput: z.number().int().nonnegative().optional(),
    encoding: z.enum(['o200k_base', 'cl100k_base']).optional(),
  }),
);

const blockLimit = z.object({ floor: z.number().min(0).max(1), cap: z.number().min(0).max(1) }).partial();
const blockLimitsSchema = z.object({ facts: blockLimit, summary: blockLimit, episodes: blockLimit, history: blockLimit }).partial();

const envSchema = databaseEnvSchema.extend({
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalText,
  OPENAI_API_MODE: z.enum(['chat', 'responses']).default('chat'),
  CHAT_MODEL: z.string().default('gpt-4o-mini'),
  MEMORY_MODEL: optionalText,
  EMBEDDING_MODEL: z.string().default('text-embedding-3-small'),
  EMBEDDING_DIMENSIONS: int(512),
  OFFLINE_STREAM_DELAY_MS: int(25),
  // The embedder used without an API key: feature hashing, or a sentence encoder (USE-lite, blended
  // with hashing for CJK), which links paraphrases but costs about 25 ms of CPU per question and 200 ms
  // per turn indexed; see docs/benchmarks.md. Stored vectors follow a switch by themselves
  // (lib/memory/embedder-sync.ts).
  OFFLINE_EMBEDDER: z.enum(['sentence-encoder', 'hashing']).default('hashing'),
  // How long a model may keep us waiting: one embedder call, one memory-model call (rewrite,
  // extraction, summary), the chat model's first token and then each pause between tokens.
  EMBED_TIMEOUT_MS: ms(10_000),
  MEMORY_MODEL_TIMEOUT_MS: ms(15_000),
  CHAT_FIRST_TOKEN_TIMEOUT_MS: ms(30_000),
  CHAT_IDLE_TIMEOUT_MS: ms(30_000),

  HISTORY_WINDOW: int(20),

  // How long a correction, or a fact a turn learned or replaced, can be undone.
  UNDO_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .max(7 * 24 * 60)
    .default(30),

  // Rolling summary (conversation scope).
  SUMMARY_START_MESSAGES: int(10),
  SUMMARY_REFRESH_MESSAGES: int(5),
  // The newest messages the summary never covers; unset = HISTORY_WINDOW, so the summary never repeats the recent window.
  SUMMARY_KEEP_RAW: z.coerce.number().int().nonnegative().optional(),
  // Episodes: earlier turns recalled by meaning. conversation: the current one only; user: all the user's, ranked together;
  // related: the current conversation first, then other conversations' turns that clear EPISODES_OTHER_MIN_SIMILARITY or share two query words.
  EPISODE_SCOPE: z.enum(['conversation', 'related', 'user']).default('related'),
  EPISODES_OTHER_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).default(0.45),
  // related, in a conversation with no earlier turns: this many of the best other conversations' turns come along even below that bar.
  EPISODES_NEW_CONVERSATION_BEST: int(5),
  // 0 = auto: enough candidates to fill the block's share of the budget (5 to 50).
  EPISODES_TOP_K: int(0),
  // The best this many episodes bring the exchanges next to them (NEIGHBOUR_SPAN before and after); 0 = auto: one in
  // NEIGHBOUR_EVERY of the episodes the budget asks for, so a larger budget brings more neighbours.
  NEIGHBOUR_ANCHORS: int(0),
  NEIGHBOUR_EVERY: z.coerce.number().int().positive().default(5),
  NEIGHBOUR_SPAN: int(1),
  // Facts: what the user told about themselves, across conversations.
  FACTS_TOP_K: int(0),
  // Episodes found only by meaning must be at least this similar (cosine); word matches always count.
  // Facts are not filtered: a user's profile is small and broadly relevant (a diet for "suggest a dinner").
  EPISODES_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).default(0.1),
  // Facts found by meaning alone below this similarity (cosine) are sent only with the room left after everything else.
  FACTS_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).default(0.3),
  FACTS_EXCLUDE_CURRENT_CONVERSATION: bool(false),
  FACTS_SKIP_WHEN_HISTORY_FITS: bool(false),
  // Token budget: (context window - reserved output) x safety, per model; CONTEXT_BUDGET overrides it.
  MODEL_CONTEXT_WINDOW: z.coerce.number().int().positive().optional(),
  MODEL_RESERVED_OUTPUT: int(1024),
  BUDGET_SAFETY: z.coerce.number().positive().max(1).default(0.95),
  TOKENIZER_ENCODING: z.enum(['o200k_base', 'cl100k_base']).default('o200k_base'),
  MODEL_LIMITS: json(modelLimitsSchema, {}),
  CONTEXT_BUDGET: z.coerce.number().int().positive().optional(),
  BUDGET_BLOCKS: json(blockLimitsSchema, {}),
  MAX_MESSAGE_CHARS: int(32_000),
  // Request bodies larger than this are refused with 413 (bytes); imports have their own, larger limit.
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
  MAX_IMPORT_BODY_BYTES: z.coerce.number().int().positive().default(8_388_608),
  // The app's own HTTP server (lib/server/front-server.ts), before Next sees a request: the longest a
  // request may take to arrive whole (headers and body; a slower one gets 408), to send its headers, and
  // an idle kept-alive connection may stay; the most connections one server process holds open at once,
  // and one peer address (0: no cap). Short header and idle times free a slot held by a trickling or
  // silent client within seconds.
  REQUEST_TIMEOUT_MS: ms(30_000),
  HEADERS_TIMEOUT_MS: ms(5_000),
  KEEP_ALIVE_TIMEOUT_MS: ms(5_000),
  MAX_CONNECTIONS: z.coerce.number().int().positive().default(1024),
  MAX_CONNECTIONS_PER_ADDRESS: int(64),
  // The reverse proxies in front of the app, whose X-Forwarded-For entries are believed: a hop count
  // (`1`: one proxy) or a comma list of addresses and CIDR ranges; none by default (the peer is the client).
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((value, ctx): TrustedProxies => {
      try {
        return parseTrustedProxies(value ?? '');
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
        return z.NEVER;
      }
    }),
  // Accounts (better-auth): the secret signs session cookies; the launcher generates one under the data dir when unset.
  BETTER_AUTH_SECRET: optionalText,
  // Where the app listens (scripts/server.ts), and its URL when APP_URL is not set.
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_HOST: z.string().trim().min(1).default('127.0.0.1'),
  // The app's public URL (for auth cookies and origin checks); default http://APP_HOST:PORT.
  APP_URL: optionalText,
  // Whole errors in the log, SQL and parameters included (docs/configuration.md): your own machine only.
  MEMLENS_DEBUG: bool(false),
  // Comma-separated emails invited to be staff at start-up (an invite mails a set-password link; staff once it is used).
  STAFF_EMAILS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  // Outgoing mail (verification and password-reset links): an SMTP URL for nodemailer
  // (smtp://user:pass@host:587, smtps://…); unset, the link is written to the server log instead.
  SMTP_URL: optionalText,
  MAIL_FROM: z.string().default('memlens <no-reply@localhost>'),
  // Guests (a browser's first write makes one): at most this many per client address and hour.
  GUESTS_PER_ADDRESS_PER_HOUR: int(60),
  // The post-turn worker: a running job's lease (renewed while it runs; a dead worker's job is
  // claimed again once it lapses), how many conversations' jobs it runs at once, how often an idle
  // worker looks for due jobs, how long a job waits for the process's live chat turns before it
  // runs beside them, and whether the app's server process runs one (false when `npm run worker`
  // runs separately).
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).default(15),
  // Claims a job or an import gets (a crash or a stall mid-run counts as one) before it is dead: left
  // for staff to retry, so one that fails or stops its process every time is not run for ever.
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(16),
  WORKER_POLL_MS: z.coerce.number().int().min(50).default(1000),
  WORKER_MAX_WAIT_MS: z.coerce.number().int().min(0).default(30_000),
  // Imports (POST /api/import) run in the worker: how many at once per worker process (the rest of
  // WORKER_CONCURRENCY is left to live turns' post-turn work), and how many messages one
  // transaction stores and how many replies' post-turn work one step runs.
  IMPORT_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  IMPORT_CHUNK: z.coerce.number().int().min(1).max(2000).default(200),
  RUN_WORKER: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((value) => value === 'true' || value === '1'),
  // The rules that read what users write run in worker threads (lib/memory/rules/bounded.ts): each text
  // gets RULE_BUDGET_MS of a thread (an 8,000-character message takes about 0.6 s on a busy 2-core
  // machine), a call waits at most RULE_WAIT_MS for one, and a text is cut to RULE_INPUT_MAX_CHARS
  // first. RULE_THREADS defaults to the cores, 2 to 4.
  RULE_BUDGET_MS: ms(3000),
  RULE_WAIT_MS: ms(10_000),
  RULE_INPUT_MAX_CHARS: z.coerce.number().int().min(200).default(8000),
  RULE_THREADS: z.coerce.number().int().min(1).max(32).optional(),
  // Per user, counted in the database so every app instance shares them: at most LIMIT requests per window; 0 = no limit.
  CHAT_RATE_LIMIT: int(30),
  CHAT_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  IMPORT_RATE_LIMIT: int(10),
  IMPORT_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  // Failed sign-ins per account (the email), whatever address they come from; 0 = no limit.
  SIGN_IN_FAILURES_PER_ACCOUNT: int(10),
  SIGN_IN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  // Account mails a signed-out caller can set off (verification links sent again, the note to an
  // address that already has an account), per address mailed and per client address; 0 = no limit.
  ACCOUNT_MAILS_PER_ADDRESS: int(3),
  ACCOUNT_MAILS_PER_CLIENT: int(10),
  ACCOUNT_MAIL_WINDOW_SECONDS: z.coerce.number().int().positive().default(3600),
  REPLAY_RATE_LIMIT: int(20),
  REPLAY_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  CONVERSATION_RATE_LIMIT: int(30),
  CONVERSATION_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  FACT_RATE_LIMIT: int(30),
  FACT_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  SYSTEM_PROMPT: z.string().default('You are memlens, a helpful assistant. Answer clearly and concisely.'),
});

export type AppConfig = Omit<z.infer<typeof envSchema>, 'SUMMARY_KEEP_RAW'> & {
  SUMMARY_KEEP_RAW: number;
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
  cached = {
    ...env,
    SUMMARY_KEEP_RAW: env.SUMMARY_KEEP_RAW ?? env.HISTORY_WINDOW,
    memoryModel: env.MEMORY_MODEL ?? env.CHAT_MODEL,
    offline: !env.OPENAI_API_KEY,
  };
  return cached;
}

/** Tests change the environment between cases; this makes the next read see it. */
export function resetConfigForTests(): void {
  cached = undefined;
}
