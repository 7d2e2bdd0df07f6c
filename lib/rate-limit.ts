import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import { type Db, getDb } from '@/db/client';
import { rateLimits } from '@/db/schema';
import { getConfig } from './config';
import { DomainError } from './errors';

/**
 * What is limited, each with its own count: chats, imports, replays, new conversations and facts
 * added by hand per user, failed sign-ins per account, and the account mails a signed-out caller can
 * set off (verification links, the note to an address that already has an account) per address
 * mailed and per client address.
 */
export type LimitedAction = 'chat' | 'import' | 'replay' | 'conversation' | 'fact' | 'sign-in' | 'mail-to-address' | 'mail-from-client';

export type RateLimit = { points: number; windowSeconds: number };

const what: Record<LimitedAction, string> = {
  chat: 'messages',
  import: 'imports',
  replay: 'replays',
  conversation: 'new conversations',
  fact: 'facts added',
  'sign-in': 'failed sign-ins for this account',
  'mail-to-address': 'mails to this address',
  'mail-from-client': 'account mails from your address',
};

/**
 * A fixed-window counter kept in the `rate_limits` table by one atomic upsert per request,
 * so every app instance on the same database shares the count.
 */
export function createRateLimiter(action: LimitedAction, limit: RateLimit, db: Db = getDb()): RateLimiterDrizzle {
  return new RateLimiterDrizzle({
    storeClient: db,
    schema: rateLimits,
    keyPrefix: action,
    points: limit.points,
    duration: limit.windowSeconds,
  });
}

/** Counts one request of `key` (a user id, a hashed address); over the limit, throws `rate_limited` saying when to retry. Call before any write. */
export async function enforceRateLimit(action: LimitedAction, key: string): Promise<void> {
  const limit = configuredLimit(action);
  if (limit.points === 0) return;
  await consumeOrRefuse(limiterFor(action, limit), action, limit, key);
}

export async function consumeOrRefuse(limiter: RateLimiterDrizzle, action: LimitedAction, limit: RateLimit, userId: string): Promise<void> {
  try {
    await limiter.consume(userId);
  } catch (error) {
    // The library rejects with a RateLimiterRes when over the limit, with an Error when the store fails.
    if (!(error instanceof RateLimiterRes)) throw error;
    throw limitReached(action, limit, error.msBeforeNext);
  }
}

function limitReached(action: LimitedAction, limit: RateLimit, msBeforeNext: number): DomainError {
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new DomainError(
    'rate_limited',
    `Too many ${what[action]}: at most ${limit.points} per ${limit.windowSeconds} seconds. Try again in ${retryAfterSeconds} seconds.`,
    { retryAfterSeconds },
  );
}

/**
 * For limits counted only on failure (sign-in): throws `rate_limited` when `key` has used up its points,
 * counting nothing. `recordFailure` and `clearFailures` keep the count.
 */
export async function refuseWhenSpent(action: LimitedAction, key: string): Promise<void> {
  const limit = configuredLimit(action);
  if (limit.points === 0) return;
  const spent = await limiterFor(action, limit).get(key);
  if (spent && spent.consumedPoints >= limit.points) throw limitReached(action, limit, spent.msBeforeNext);
}

export async function recordFailure(action: LimitedAction, key: string): Promise<void> {
  const limit = configuredLimit(action);
  if (limit.points > 0) await limiterFor(action, limit).penalty(key, 1);
}

export async function clearFailures(action: LimitedAction, key: string): Promise<void> {
  const limit = configuredLimit(action);
  if (limit.points > 0) await limiterFor(action, limit).delete(key);
}

function configuredLimit(action: LimitedAction): RateLimit {
  const config = getConfig();
  const limits: Record<LimitedAction, RateLimit> = {
    chat: { points: config.CHAT_RATE_LIMIT, windowSeconds: config.CHAT_RATE_WINDOW_SECONDS },
    import: { points: config.IMPORT_RATE_LIMIT, windowSeconds: config.IMPORT_RATE_WINDOW_SECONDS },
    // A replay runs the retrieval chain (the memory model's rewrite and an embedding when configured) without a chat.
    replay: { points: config.REPLAY_RATE_LIMIT, windowSeconds: config.REPLAY_RATE_WINDOW_SECONDS },
    // Each is a row a user keeps (and lists) for ever: a script must not make thousands a minute.
    conversation: { points: config.CONVERSATION_RATE_LIMIT, windowSeconds: config.CONVERSATION_RATE_WINDOW_SECONDS },
    fact: { points: config.FACT_RATE_LIMIT, windowSeconds: config.FACT_RATE_WINDOW_SECONDS },
    'sign-in': { points: config.SIGN_IN_FAILURES_PER_ACCOUNT, windowSeconds: config.SIGN_IN_FAILURE_WINDOW_SECONDS },
    'mail-to-address': { points: config.ACCOUNT_MAILS_PER_ADDRESS, windowSeconds: config.ACCOUNT_MAIL_WINDOW_SECONDS },
    'mail-from-client': { points: config.ACCOUNT_MAILS_PER_CLIENT, windowSeconds: config.ACCOUNT_MAIL_WINDOW_SECONDS },
  };
  return limits[action];
}

// One limiter per action and setting in this process; a new one when the setting or the pool changes (tests do both).
const limiters = new Map<string, { db: Db; limiter: RateLimiterDrizzle }>();

function limiterFor(action: LimitedAction, limit: RateLimit): RateLimiterDrizzle {
  const key = `${action}:${limit.points}:${limit.windowSeconds}`;
  const db = getDb();
  const cached = limiters.get(key);
  if (cached?.db === db) return cached.limiter;
  const limiter = createRateLimiter(action, limit, db);
  limiters.set(key, { db, limiter });
  return limiter;
}
