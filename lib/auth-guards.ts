import { createHash } from 'node:crypto';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { guestsFromAddress } from '@/db/users';
import { clientAddress } from './client-address';
import { getConfig } from './config';
import { DomainError } from './errors';
import { httpErrorOf } from './http';
import { clearFailures, recordFailure, refuseWhenSpent } from './rate-limit';

/**
 * What better-auth's routes do not check by themselves, as its before and after hooks:
 * - a profile (sign-up, update-user) has an email of at most MAX_EMAIL_CHARS, a name of at most MAX_NAME_CHARS and an image that is an
 *   http(s) URL or absent (a `javascript:` URL would run when a page links it);
 * - failed sign-ins are counted per account (the email, hashed), whatever address they come from:
 *   past SIGN_IN_FAILURES_PER_ACCOUNT in the window, sign-in to that account answers 429 with
 *   Retry-After until the window ends. A success clears the count; other accounts are not touched;
 * - new guests (anonymous sign-in) are bounded per client address and hour, when the address is
 *   known. There is no global bound: it would let anyone lock every new visitor out.
 */
const MAX_NAME_CHARS = 100;
/** The longest address SMTP can deliver to (RFC 5321's path limit less its brackets). */
const MAX_EMAIL_CHARS = 254;

const PROFILE_PATHS = new Set(['/sign-up/email', '/update-user']);
const SIGN_IN_PATH = '/sign-in/email';
const GUEST_PATH = '/sign-in/anonymous';

export const authBeforeHook = createAuthMiddleware(async (ctx) => {
  try {
    if (PROFILE_PATHS.has(ctx.path)) checkProfile(ctx.body);
    if (ctx.path === SIGN_IN_PATH) await refuseWhenSpent('sign-in', accountKey(ctx.body));
    if (ctx.path === GUEST_PATH && ctx.headers) await boundGuests(clientAddress(ctx.headers));
  } catch (error) {
    throw asAuthError(error);
  }
});

export const authAfterHook = createAuthMiddleware(async (ctx) => {
  if (ctx.path !== SIGN_IN_PATH) return;
  const key = accountKey(ctx.body);
  const returned = ctx.context.returned;
  if (returned instanceof APIError) {
    if (returned.statusCode === 401) await recordFailure('sign-in', key);
  } else {
    await clearFailures('sign-in', key);
  }
});

async function boundGuests(address: string | null): Promise<void> {
  if (!address || (await guestsFromAddress(address)) < getConfig().GUESTS_PER_ADDRESS_PER_HOUR) return;
  throw new DomainError('too_many_guests', 'Too many new guest sessions from your address in the last hour; sign in, or try again later.', {
    retryAfterSeconds: 3600,
  });
}

function checkProfile(body: unknown): void {
  const { name, image, email } = (body ?? {}) as { name?: unknown; image?: unknown; email?: unknown };
  if (typeof email === 'string' && email.length > MAX_EMAIL_CHARS) {
    throw new DomainError('email_too_long', `The email is ${email.length} characters long; an address has at most ${MAX_EMAIL_CHARS}.`);
  }
  if (typeof name === 'string' && [...name].length > MAX_NAME_CHARS) {
    throw new DomainError('name_too_long', `The name is ${[...name].length} characters long; at most ${MAX_NAME_CHARS} are allowed.`);
  }
  if (image !== undefined && image !== null && !isWebUrl(image)) {
    throw new DomainError('invalid_image', 'The image must be an http:// or https:// URL, or left out.');
  }
}

function isWebUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The account a sign-in names, hashed: the count must not keep every email (or password typed there) in clear. */
function accountKey(body: unknown): string {
  const email = (body as { email?: unknown } | undefined)?.email;
  return createHash('sha256')
    .update(typeof email === 'string' ? email.trim().toLowerCase() : '')
    .digest('hex');
}

/**
 * Our errors as better-auth's, which its router answers with (any other error is a bare 500): the
 * body carries both its `{code, message}` (its client reads them) and our `{error: {code, message}}`.
 * The domain error rides along as the cause, for `fromAuthError` to give back.
 */
function asAuthError(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  const { status, code, message, headers } = httpErrorOf(error);
  const body = { code, message, error: { code, message } };
  const authError = new APIError(status === 429 ? 'TOO_MANY_REQUESTS' : 'BAD_REQUEST', body, headers);
  authError.cause = error;
  return authError;
}

/** The way back, for auth calls made from our own code (lib/session.ts): our domain error, as the hook threw it. */
export function fromAuthError(error: unknown): unknown {
  return error instanceof APIError && error.cause instanceof DomainError ? error.cause : error;
}
